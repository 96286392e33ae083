package io.sluice.state.internal;

import io.sluice.rdd.Time;

/** A user's state function failed: names the operator, the key and the batch, and carries the cause. */
public final class StateFunctionException extends RuntimeException {
    public StateFunctionException(String operator, Object key, long batchTime, Throwable cause) {
        super(operator + " failed at batch " + Time.ofMillis(batchTime) + " on key '" + abbreviate(key) + "': "
                + cause, cause);
    }

    private static String abbreviate(Object key) {
        String s = String.valueOf(key);
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
