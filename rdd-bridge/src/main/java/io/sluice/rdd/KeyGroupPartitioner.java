package io.sluice.rdd;

import org.apache.spark.Partitioner;

/**
 * Partitions keys by key group: partition {@code p} holds the contiguous range of key groups
 * {@link KeyGroups#rangeOf(int, int)} gives it. Two partitioners with equal counts place every key alike,
 * so Spark treats RDDs partitioned by them as co-partitioned (no shuffle when joining them).
 */
public final class KeyGroupPartitioner extends Partitioner {
    private final KeyGroups keyGroups;
    private final int partitions;

    public KeyGroupPartitioner(KeyGroups keyGroups, int partitions) {
        if (partitions < 1 || partitions > keyGroups.count()) {
            throw new IllegalArgumentException("state partitions must be in [1, " + keyGroups.count()
                    + "] (the number of key groups), was " + partitions);
        }
        this.keyGroups = keyGroups;
        this.partitions = partitions;
    }

    public KeyGroups keyGroups() {
        return keyGroups;
    }

    /** The same key groups over {@code count} partitions (the state re-partitioned). */
    public KeyGroupPartitioner withPartitions(int count) {
        return count == partitions ? this : new KeyGroupPartitioner(keyGroups, count);
    }

    /** The key groups partition {@code partition} holds. */
    public KeyGroupRange rangeOf(int partition) {
        return keyGroups.rangeOf(partition, partitions);
    }

    /** The partition of a key whose {@code hashCode()} is {@code hashCode}. */
    public int partitionOfHash(int hashCode) {
        return keyGroups.partitionOf(keyGroups.groupOfHash(hashCode), partitions);
    }

    @Override
    public int numPartitions() {
        return partitions;
    }

    @Override
    public int getPartition(Object key) {
        return keyGroups.partitionOf(keyGroups.groupOf(key), partitions);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof KeyGroupPartitioner that
                && that.partitions == partitions && that.keyGroups.equals(keyGroups);
    }

    @Override
    public int hashCode() {
        return 31 * keyGroups.hashCode() + partitions;
    }

    @Override
    public String toString() {
        return "KeyGroupPartitioner(" + partitions + " partitions, " + keyGroups.count() + " key groups)";
    }
}
