package io.sluice.rdd.internal;

import java.io.Serializable;
import java.util.Iterator;

/** What a {@link PartitionMapRDD} does to the records of one partition: shipped to the tasks that run it. */
@FunctionalInterface
public interface PartitionFunction<A, B> extends Serializable {
    Iterator<B> apply(int partition, Iterator<A> records) throws Exception;
}
