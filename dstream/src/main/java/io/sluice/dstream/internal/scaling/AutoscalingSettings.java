package io.sluice.dstream.internal.scaling;

import java.time.Duration;

/**
 * The autoscaler's settings, validated: a decision every {@code scalingInterval}; executors are added when the
 * average processing time over the batch interval is at least {@code upRatio}, one is removed when it is at most
 * {@code downRatio}; the count stays within [{@code minExecutors}, {@code maxExecutors}]. With
 * {@code repartitionState}, every stateful operator gets {@code partitionsPerExecutor} state partitions per
 * executor after each change.
 *
 * @param minExecutors null: the number of receivers, at least 1 (Spark Streaming's default)
 */
public record AutoscalingSettings(Duration scalingInterval, double upRatio, double downRatio, Integer minExecutors,
        int maxExecutors, boolean repartitionState, int partitionsPerExecutor) {

    public AutoscalingSettings {
        if (scalingInterval.isNegative() || scalingInterval.isZero()) {
            throw new IllegalArgumentException("the scaling interval must be positive, was " + scalingInterval);
        }
        if (!(upRatio > 0) || !(downRatio > 0)) {
            throw new IllegalArgumentException("the scaling ratios must be positive, were up " + upRatio
                    + " and down " + downRatio);
        }
        if (upRatio <= downRatio) {
            throw new IllegalArgumentException("the scaling up ratio (" + upRatio
                    + ") must be more than the scaling down ratio (" + downRatio + ")");
        }
        if (minExecutors != null && minExecutors < 1 || maxExecutors < 1) {
            throw new IllegalArgumentException("the executor bounds must be at least 1, were min " + minExecutors
                    + " and max " + maxExecutors);
        }
        if (minExecutors != null && maxExecutors < minExecutors) {
            throw new IllegalArgumentException("the maximum number of executors (" + maxExecutors
                    + ") must be at least the minimum (" + minExecutors + ")");
        }
        if (partitionsPerExecutor < 1) {
            throw new IllegalArgumentException("state partitions per executor must be at least 1, was "
                    + partitionsPerExecutor);
        }
    }

    /** The lower bound with {@code receivers} receivers running: as set, else one per receiver (at least 1). */
    public int minExecutors(int receivers) {
        return minExecutors != null ? minExecutors : Math.min(maxExecutors, Math.max(1, receivers));
    }
}
