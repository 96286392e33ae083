package io.sluice.kafka;

import io.sluice.dstream.source.SourceContext;
import java.time.Duration;
import org.apache.kafka.common.TopicPartition;

/**
 * How many offsets one partition may give a batch, as Spark's direct stream computes it: the partition's
 * maximum rate (records per second, 0 for no limit) times the batch interval, but at least its minimum.
 */
record RateLimit(PerPartitionConfig config, Duration batchInterval) {
    static final String MAX_RATE = "spark.streaming.kafka.maxRatePerPartition";
    static final String MIN_RATE = "spark.streaming.kafka.minRatePerPartition";

    /** The limits the context's settings give every partition. */
    static PerPartitionConfig fromSettings(SourceContext context) {
        long max = setting(context, MAX_RATE, 0);
        long min = setting(context, MIN_RATE, 1);
        return new PerPartitionConfig() {
            private static final long serialVersionUID = 1L;

            @Override
            public long maxRatePerPartition(TopicPartition topicPartition) {
                return max;
            }

            @Override
            public long minRatePerPartition(TopicPartition topicPartition) {
                return min;
            }
        };
    }

    private static long setting(SourceContext context, String key, long otherwise) {
        String value = context.setting(key).orElse(null);
        long parsed;
        try {
            parsed = value == null ? otherwise : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number of records per second, was " + value, e);
        }
        if (parsed < 0) {
            throw new IllegalArgumentException(key + " must not be negative, was " + parsed);
        }
        return parsed;
    }

    /** The end of {@code partition}'s range in a batch starting at {@code from} when it ends at {@code latest}. */
    long until(TopicPartition partition, long from, long latest) {
        long maxRate = config.maxRatePerPartition(partition);
        if (maxRate <= 0 || latest <= from) {
            return Math.max(from, latest);
        }
        double seconds = batchInterval.toMillis() / 1000.0;
        long most = Math.max((long) (seconds * maxRate), config.minRatePerPartition(partition));
        return Math.min(latest, from + most);
    }
}
