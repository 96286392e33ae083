package io.sluice.kafka;

import java.io.Serializable;
import java.util.Objects;
import org.apache.kafka.common.TopicPartition;

/**
 * The offsets of one topic partition a batch reads: from {@link #fromOffset} (inclusive) to {@link #untilOffset}
 * (exclusive). Spark's {@code org.apache.spark.streaming.kafka010.OffsetRange}, with the same factories and text.
 */
public final class OffsetRange implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final int partition;
    private final long fromOffset;
    private final long untilOffset;

    private OffsetRange(String topic, int partition, long fromOffset, long untilOffset) {
        this.topic = Objects.requireNonNull(topic, "topic");
        if (fromOffset > untilOffset) {
            throw new IllegalArgumentException("offset range of " + topic + "-" + partition + " ends before it starts: "
                    + fromOffset + " > " + untilOffset);
        }
        this.partition = partition;
        this.fromOffset = fromOffset;
        this.untilOffset = untilOffset;
    }

    public static OffsetRange create(String topic, int partition, long fromOffset, long untilOffset) {
        return new OffsetRange(topic, partition, fromOffset, untilOffset);
    }

    public static OffsetRange create(TopicPartition topicPartition, long fromOffset, long untilOffset) {
        return new OffsetRange(topicPartition.topic(), topicPartition.partition(), fromOffset, untilOffset);
    }

    public static OffsetRange apply(String topic, int partition, long fromOffset, long untilOffset) {
        return create(topic, partition, fromOffset, untilOffset);
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public long fromOffset() {
        return fromOffset;
    }

    public long untilOffset() {
        return untilOffset;
    }

    public TopicPartition topicPartition() {
        return new TopicPartition(topic, partition);
    }

    /** The number of offsets in the range (records, unless the topic is compacted or transactional). */
    public long count() {
        return untilOffset - fromOffset;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OffsetRange r && topic.equals(r.topic) && partition == r.partition
                && fromOffset == r.fromOffset && untilOffset == r.untilOffset;
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, fromOffset, untilOffset);
    }

    @Override
    public String toString() {
        return "OffsetRange(topic: '" + topic + "', partition: " + partition + ", range: [" + fromOffset + " -> "
                + untilOffset + "])";
    }
}
