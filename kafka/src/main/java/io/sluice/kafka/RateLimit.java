package io.sluice.kafka;

import io.sluice.dstream.source.SourceContext;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * How many offsets each partition may give a batch, as Spark's direct stream computes it
 * ({@code DirectKafkaInputDStream.maxMessagesPerPartition} and {@code clamp}): with a backpressure rate, the
 * rate is split over the partitions by their lag, each share capped by the partition's maximum rate; without
 * one, each partition's maximum rate (records per second, 0 for none). Times the batch interval, but at least
 * the partition's minimum; no limit at all when every rate is 0 (with backpressure: when no partition lags).
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

    /**
     * Where each partition's range ends in a batch starting at {@code from} when the partitions end at {@code
     * latest} (same keys), given the backpressure rate in records per second for the whole stream, if any.
     */
    Map<TopicPartition, Long> until(Map<TopicPartition, Long> from, Map<TopicPartition, Long> latest,
            OptionalLong backpressureRate) {
        Map<TopicPartition, Double> ratePerPartition = new HashMap<>();
        if (backpressureRate.isPresent()) {
            Map<TopicPartition, Long> lag = new HashMap<>();
            latest.forEach((tp, end) -> lag.put(tp, Math.max(end - from.get(tp), 0)));
            double totalLag = lag.values().stream().mapToLong(Long::longValue).sum();
            lag.forEach((tp, partitionLag) -> {
                double share = partitionLag / totalLag * backpressureRate.getAsLong(); // NaN without lag: no limit
                long max = config.maxRatePerPartition(tp);
                ratePerPartition.put(tp, max > 0 ? Math.min(share, max) : share);
            });
        } else {
            // A partition without a maximum (0) is not limited: Spark would hold it to its minimum per batch
            // whenever another partition has a maximum, which reads as a slip, not a rule (0 means no limit).
            latest.keySet().forEach(tp -> {
                long max = config.maxRatePerPartition(tp);
                ratePerPartition.put(tp, max > 0 ? (double) max : Double.POSITIVE_INFINITY);
            });
        }
        double seconds = batchInterval.toMillis() / 1000.0;
        boolean limited = ratePerPartition.values().stream().mapToDouble(Double::doubleValue).sum() > 0; // not NaN
        Map<TopicPartition, Long> until = new HashMap<>();
        latest.forEach((tp, end) -> {
            long start = from.get(tp);
            double rate = ratePerPartition.get(tp);
            boolean unlimited = !limited || rate == Double.POSITIVE_INFINITY;
            long most = unlimited ? 0 : Math.max((long) (seconds * rate), config.minRatePerPartition(tp));
            until.put(tp, Math.max(start, unlimited ? end : Math.min(end, start + most)));
        });
        return until;
    }
}
