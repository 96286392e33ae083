package io.sluice.rdd.internal;

import java.util.OptionalLong;

/**
 * An RDD that can sometimes tell how many records it holds without running a job (a Kafka batch whose offset
 * ranges are all empty). {@link Jobs#count}, which {@code DStream.count()} runs, then answers without one, as the
 * RDD's own {@code count()} does.
 */
public interface KnownCount {
    /** The number of records, when known without computing a partition; empty otherwise. */
    OptionalLong knownCount();
}
