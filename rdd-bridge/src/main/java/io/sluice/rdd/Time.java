package io.sluice.rdd;

import java.io.Serializable;
import java.time.Duration;

/**
 * A batch time: milliseconds since the epoch (or since the manual clock's zero). Immutable and ordered. It lives
 * in the lowest module because every layer speaks of batch times (state timeouts, checkpoints, job tags).
 * Named and shaped like Spark Streaming's {@code Time}, so {@code foreachRDD((rdd, time) -> ...)} code moves
 * over unchanged. Grid arithmetic (multiples of an interval, floors, the batches between two times) is
 * {@link BatchGrid}'s; {@link #floor} and {@link #isMultipleOf}, kept for Spark Streaming's code, ask it.
 */
public record Time(long milliseconds) implements Comparable<Time>, Serializable {
    public static Time ofMillis(long milliseconds) {
        return new Time(milliseconds);
    }

    public Time plus(Duration d) {
        return new Time(milliseconds + d.toMillis());
    }

    public Time minus(Duration d) {
        return new Time(milliseconds - d.toMillis());
    }

    public Duration minus(Time other) {
        return Duration.ofMillis(milliseconds - other.milliseconds);
    }

    public boolean isAfter(Time other) {
        return milliseconds > other.milliseconds;
    }

    public boolean isBefore(Time other) {
        return milliseconds < other.milliseconds;
    }

    /** Spark Streaming's {@code floor}: the latest multiple of {@code interval} at or before this time. */
    public Time floor(Duration interval) {
        return BatchGrid.ofEpoch(interval).floor(this);
    }

    /** Spark Streaming's {@code isMultipleOf}: whether this time is on {@code interval}'s grid from the epoch. */
    public boolean isMultipleOf(Duration interval) {
        return BatchGrid.ofEpoch(interval).isOnGrid(this);
    }

    @Override
    public int compareTo(Time other) {
        return Long.compare(milliseconds, other.milliseconds);
    }

    /** Spark Streaming's text, {@code <ms> ms}: programs write batch times into their output files. */
    @Override
    public String toString() {
        return milliseconds + " ms";
    }
}
