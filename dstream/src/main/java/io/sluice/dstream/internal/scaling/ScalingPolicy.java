package io.sluice.dstream.internal.scaling;

import java.util.Optional;

/**
 * When to change the number of executors, by Spark Streaming's rule: once per scaling interval, the average
 * processing time of the batches that completed in it, over the batch interval, is the load ratio. At or above
 * the up ratio the target grows by {@code max(1, round(ratio))} executors; at or below the down ratio it shrinks
 * by one; it stays within the bounds. An interval without a completed batch decides nothing.
 *
 * <p>Hysteresis, beyond the two ratios: while a change is pending (executors asked for and not yet registered,
 * or one being removed) nothing is decided and no batch counts; the next interval starts when the change is
 * done, so every decision measures batches that ran on the current executors only. A plain function of what it
 * is told: no clock, no Spark.
 */
final class ScalingPolicy {
    /** A change of the executor count to {@code target}, decided at load {@code ratio} over {@code batches}. */
    record Decision(int target, double ratio, int batches) {
    }

    private final AutoscalingSettings settings;
    private final long batchMillis;
    private final long intervalMillis;
    private long windowStart;
    private long processingSum;
    private int batches;

    ScalingPolicy(AutoscalingSettings settings, long batchMillis, long startMillis) {
        if (batchMillis <= 0) {
            throw new IllegalArgumentException("the batch interval must be positive, was " + batchMillis + " ms");
        }
        this.settings = settings;
        this.batchMillis = batchMillis;
        this.intervalMillis = settings.scalingInterval().toMillis();
        this.windowStart = startMillis;
    }

    /** A batch completed in {@code processingMillis}; a failed batch does not count (as in Spark Streaming). */
    void batchCompleted(long processingMillis, boolean failed) {
        if (!failed && processingMillis >= 0) {
            processingSum += processingMillis;
            batches++;
        }
    }

    /**
     * The executor count to go to at {@code now}, with {@code executors} registered, {@code minExecutors} the
     * lower bound, and {@code pending} whether the previous change is still under way; empty: no change.
     */
    Optional<Decision> decide(long now, int executors, int minExecutors, boolean pending) {
        if (pending) {
            restart(now);
            return Optional.empty();
        }
        if (now - windowStart < intervalMillis) {
            return Optional.empty();
        }
        int counted = batches;
        long sum = processingSum;
        restart(now);
        if (counted == 0) {
            return Optional.empty();
        }
        double ratio = (double) (sum / counted) / batchMillis;
        int target = executors;
        if (ratio >= settings.upRatio()) {
            int more = Math.max(1, (int) Math.round(ratio));
            target = Math.max(minExecutors, (int) Math.min(settings.maxExecutors(), (long) executors + more));
        } else if (ratio <= settings.downRatio() && executors > minExecutors) {
            target = executors - 1;
        }
        return target == executors ? Optional.empty() : Optional.of(new Decision(target, ratio, counted));
    }

    private void restart(long now) {
        windowStart = now;
        processingSum = 0;
        batches = 0;
    }
}
