package io.sluice.dstream.internal;

import java.time.Duration;

/** Arithmetic on batch intervals, which are whole milliseconds. */
public final class Durations {
    private Durations() {
    }

    public static Duration requirePositiveMillis(Duration d, String what) {
        if (d == null || d.toMillis() <= 0 || !d.equals(Duration.ofMillis(d.toMillis()))) {
            throw new IllegalArgumentException(what + " must be a positive whole number of milliseconds, was " + d);
        }
        return d;
    }

    public static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    public static String show(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
