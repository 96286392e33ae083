package io.sluice.kafka;

import java.io.Serializable;
import org.apache.kafka.common.TopicPartition;

/**
 * Rate limits per topic partition, for {@link KafkaUtils#createDirectStream(io.sluice.dstream.StreamingContext,
 * LocationStrategy, ConsumerStrategy, PerPartitionConfig)}: Spark's {@code PerPartitionConfig}. Without one, every
 * partition gets {@code spark.streaming.kafka.maxRatePerPartition} and {@code minRatePerPartition}.
 */
public abstract class PerPartitionConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    /** At most this many records per second from the partition; 0 for no limit. */
    public abstract long maxRatePerPartition(TopicPartition topicPartition);

    /** At least this many records per batch from the partition when it has them (Spark counts it per batch). */
    public long minRatePerPartition(TopicPartition topicPartition) {
        return 1;
    }
}
