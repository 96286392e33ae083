package io.sluice.rdd;

import java.io.Serializable;

/**
 * Keys hash into a fixed number of key groups; state is partitioned by whole key groups, so that state can
 * later move between partitions one key group at a time without rehashing a single key.
 *
 * <p>The number of key groups is fixed for the life of a checkpoint; the number of partitions can change.
 */
public record KeyGroups(int count) implements Serializable {
    /** Enough groups for any sensible number of state partitions, few enough to keep per-group overhead low. */
    public static final int DEFAULT_COUNT = 128;

    public KeyGroups {
        if (count < 1 || count > (1 << 15)) {
            throw new IllegalArgumentException("key group count must be in [1, 32768], was " + count);
        }
    }

    /** The key group of {@code key}: its hash code, scrambled so that sequential hash codes spread evenly. */
    public int groupOf(Object key) {
        return groupOfHash(key == null ? 0 : key.hashCode());
    }

    /** The key group of a key whose {@code hashCode()} is {@code hashCode} (for keys stored as bytes). */
    public int groupOfHash(int hashCode) {
        int h = hashCode * 0x9E3779B9;
        h ^= h >>> 16;
        return Math.floorMod(h, count);
    }

    /**
     * The partition owning {@code keyGroup} when the groups are split into {@code partitions} contiguous
     * ranges of near-equal size.
     */
    public int partitionOf(int keyGroup, int partitions) {
        return (int) ((long) keyGroup * partitions / count);
    }

    /** The key groups the partition {@code partition} of {@code partitions} owns. */
    public KeyGroupRange rangeOf(int partition, int partitions) {
        if (partition < 0 || partition >= partitions) {
            throw new IllegalArgumentException("partition " + partition + " not in [0, " + partitions + ")");
        }
        int start = (int) (((long) partition * count + partitions - 1) / partitions);
        int end = (int) (((long) (partition + 1) * count + partitions - 1) / partitions);
        return new KeyGroupRange(start, end);
    }
}
