package io.sluice.kafka;

import org.apache.kafka.clients.consumer.OffsetCommitCallback;

/**
 * Commits offsets to Kafka for the stream's consumer group, as Spark's {@code CanCommitOffsets}: the offsets are
 * queued and committed by the driver's consumer when the next batch is computed (and when the stream stops).
 * Commit the {@code untilOffset}s of a batch once its output is stored. Kafka's committed offsets are not what
 * a restarted Sluice job continues from: that is the checkpoint (see {@link DirectKafkaSource}).
 */
public interface CanCommitOffsets {
    void commitAsync(OffsetRange[] offsetRanges);

    void commitAsync(OffsetRange[] offsetRanges, OffsetCommitCallback callback);
}
