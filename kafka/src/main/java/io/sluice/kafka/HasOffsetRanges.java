package io.sluice.kafka;

/**
 * Implemented by the RDD of every batch of a Kafka direct stream and by {@link KafkaUtils#createRDD}: the offsets
 * it reads, one range per partition of the RDD (in partition order). As in Spark:
 * {@code OffsetRange[] ranges = ((HasOffsetRanges) rdd.rdd()).offsetRanges();} on the RDD that
 * {@code foreachRDD} or {@code transform} gets from the stream itself (not from a stream derived from it).
 */
public interface HasOffsetRanges {
    OffsetRange[] offsetRanges();
}
