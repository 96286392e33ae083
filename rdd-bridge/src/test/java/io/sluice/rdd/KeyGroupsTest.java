package io.sluice.rdd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KeyGroupsTest {
    @Test
    void rangesCoverEveryGroupExactlyOnceAndAgreeWithPartitionOf() {
        KeyGroups groups = new KeyGroups(128);
        for (int partitions : new int[] {1, 3, 4, 7, 128}) {
            int covered = 0;
            for (int p = 0; p < partitions; p++) {
                KeyGroupRange range = groups.rangeOf(p, partitions);
                covered += range.size();
                for (int g = range.start(); g < range.end(); g++) {
                    assertEquals(p, groups.partitionOf(g, partitions), "group " + g + " of " + partitions);
                }
            }
            assertEquals(128, covered);
        }
    }

    @Test
    void partitionerPlacesKeysByTheirGroup() {
        KeyGroups groups = new KeyGroups(16);
        KeyGroupPartitioner partitioner = new KeyGroupPartitioner(groups, 4);
        for (int i = 0; i < 1_000; i++) {
            String key = "w" + i;
            int p = partitioner.getPartition(key);
            assertTrue(groups.rangeOf(p, 4).contains(groups.groupOf(key)));
        }
        assertEquals(partitioner, new KeyGroupPartitioner(new KeyGroups(16), 4));
    }

    @Test
    void rejectsMorePartitionsThanGroups() {
        assertThrows(IllegalArgumentException.class, () -> new KeyGroupPartitioner(new KeyGroups(4), 5));
        assertThrows(IllegalArgumentException.class, () -> new KeyGroups(0));
    }
}
