package io.sluice.dstream.internal;

import io.sluice.rdd.Time;

/** A failure while computing or running an operator at a batch: the message names both. */
public final class OperatorException extends RuntimeException {
    public OperatorException(Operator<?> operator, Time time, Throwable cause) {
        this(operator.describe(), time, cause);
    }

    public OperatorException(String operator, Time time, Throwable cause) {
        super(operator + " failed at batch " + time + ": " + rootMessage(cause), cause);
    }

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == t ? String.valueOf(t) : t + " (caused by " + root + ")";
    }
}
