package io.sluice.kafka;

import io.sluice.dstream.source.SourceContext;
import java.time.Duration;

/**
 * How many offsets one partition may give a batch: {@code spark.streaming.kafka.maxRatePerPartition} (records
 * per second, 0 for no limit) times the batch interval, but at least {@code minRatePerPartition} (default 1),
 * as Spark's direct stream computes it.
 */
record RateLimit(long maxRatePerPartition, long minRatePerPartition, Duration batchInterval) {
    static final String MAX_RATE = "spark.streaming.kafka.maxRatePerPartition";
    static final String MIN_RATE = "spark.streaming.kafka.minRatePerPartition";

    RateLimit {
        if (maxRatePerPartition < 0 || minRatePerPartition < 0) {
            throw new IllegalArgumentException(MAX_RATE + " and " + MIN_RATE + " must not be negative: "
                    + maxRatePerPartition + ", " + minRatePerPartition);
        }
    }

    static RateLimit of(SourceContext context) {
        return new RateLimit(setting(context, MAX_RATE, 0), setting(context, MIN_RATE, 1), context.grid().step());
    }

    private static long setting(SourceContext context, String key, long otherwise) {
        String value = context.setting(key).orElse(null);
        try {
            return value == null ? otherwise : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number of records per second, was " + value, e);
        }
    }

    /** The end of a partition's range in a batch starting at {@code from} when the partition ends at {@code latest}. */
    long until(long from, long latest) {
        if (maxRatePerPartition == 0 || latest <= from) {
            return Math.max(from, latest);
        }
        double seconds = batchInterval.toMillis() / 1000.0;
        long most = Math.max((long) (seconds * maxRatePerPartition), minRatePerPartition);
        return Math.min(latest, from + most);
    }
}
