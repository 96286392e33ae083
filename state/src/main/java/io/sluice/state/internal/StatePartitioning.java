package io.sluice.state.internal;

import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.KeyGroups;
import org.apache.spark.Partitioner;

/**
 * The partitioner of a stateful operator's state: always by key groups, so state can later move between
 * partitions a key group at a time. A user's partitioner contributes its number of partitions.
 */
public final class StatePartitioning {
    private StatePartitioning() {
    }

    public static KeyGroupPartitioner of(Partitioner requested, Integer numPartitions, int defaultParallelism) {
        if (requested instanceof KeyGroupPartitioner kg) {
            return kg;
        }
        int n = requested != null ? requested.numPartitions()
                : numPartitions != null ? numPartitions : defaultParallelism;
        return new KeyGroupPartitioner(new KeyGroups(Math.max(KeyGroups.DEFAULT_COUNT, n)), n);
    }
}
