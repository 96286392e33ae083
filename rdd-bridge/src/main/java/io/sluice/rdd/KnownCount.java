package io.sluice.rdd;

import java.util.OptionalLong;

/**
 * An RDD (of a source, typically) that can sometimes tell how many records it holds without running a job, such as
 * a Kafka batch whose offset ranges are all empty. {@code DStream.count()} then answers without a Spark job; the
 * RDD's own {@code count()} should answer the same way.
 */
public interface KnownCount {
    /** The number of records, when known without computing a partition; empty otherwise. */
    OptionalLong knownCount();
}
