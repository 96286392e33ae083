package io.sluice.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.KeyGroups;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import scala.Tuple2;

/**
 * Moving state between partitions one key group at a time ({@link StateLoader#putEntriesOf}, what
 * {@link MovedStateRDD} does per partition): every live entry of a version (base and delta, tombstones honoured)
 * lands in exactly the partition the new layout gives its key, with its state and update time, and the moved
 * versions time out exactly the keys the original would.
 */
class StateMoveTest {
    private static final long INTERVAL = 1000;

    /** "+" adds one, "-" removes the key; a timeout emits "key timed out". */
    private static final MappingFunction<Object, String, Long, String> FUNCTION = (time, key, value, state) -> {
        if (state.isTimingOut()) {
            return key + " timed out";
        }
        if (value.get().equals("-")) {
            state.remove();
        } else {
            state.update(state.getOption().orElse(0L) + 1);
        }
        return MappingFunction.NONE;
    };

    private static final MapWithStateTransition<Object, String, Long, String> TRANSITION =
            new MapWithStateTransition<>(FUNCTION, 5 * INTERVAL, "test");

    private record Entry(Object state, long lastUpdate) {
    }

    private static Map<Object, Entry> contents(StateVersion<?, ?> v) throws Exception {
        Map<Object, Entry> m = new HashMap<>();
        v.forEach((k, s, t) -> m.put(k, new Entry(s, t)));
        return m;
    }

    private static MapWithStateBatch<Object, Long, String> step(StateVersion<Object, Long> v, long time,
            List<Tuple2<Object, String>> records) {
        return TRANSITION.apply(v, records.iterator(), time);
    }

    private static List<Tuple2<Object, String>> ops(String op, List<Object> keys) {
        return keys.stream().map(k -> new Tuple2<>(k, op)).toList();
    }

    /** 10,000 keys at 1 s, 100 updated at 2 s; then a delta at 3 s: 50 removed (tombstones), 20 updated. */
    private static StateVersion<Object, Long> stateWithDelta(StateBackend backend,
            java.util.function.IntFunction<Object> key) {
        List<Object> all = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            all.add(key.apply(i));
        }
        StateVersion<Object, Long> v = step(backend.empty(0, true), INTERVAL, ops("+", all)).state();
        v = step(v, 2 * INTERVAL, ops("+", all.subList(0, 100))).state();
        List<Tuple2<Object, String>> third = new ArrayList<>(ops("-", all.subList(100, 150)));
        third.addAll(ops("+", all.subList(500, 520)));
        return step(v, 3 * INTERVAL, third).state();
    }

    private static List<StateVersion<Object, Long>> moved(StateVersion<Object, Long> v, KeyGroupPartitioner to) {
        List<StateVersion<Object, Long>> partitions = new ArrayList<>();
        for (int j = 0; j < to.numPartitions(); j++) {
            int partition = j;
            StateLoader<Object, Long> loader = v.backend().loader(16, v.timed());
            loader.putEntriesOf(v, hashCode -> to.partitionOfHash(hashCode) == partition);
            partitions.add(loader.buildMoved(v.batchTime()));
        }
        return partitions;
    }

    private static void assertMovesExactly(StateBackend backend, java.util.function.IntFunction<Object> key)
            throws Exception {
        StateVersion<Object, Long> original = stateWithDelta(backend, key);
        assertTrue(!(original instanceof HeapStateVersion<Object, Long> h) || h.deltaEntries() > 0,
                "the original has a delta over its base");
        Map<Object, Entry> expected = contents(original);
        assertEquals(9950, expected.size());
        for (int n : new int[] {1, 3, 8}) {
            KeyGroupPartitioner to = new KeyGroupPartitioner(new KeyGroups(KeyGroups.DEFAULT_COUNT), n);
            Map<Object, Entry> union = new HashMap<>();
            List<StateVersion<Object, Long>> partitions = moved(original, to);
            for (int j = 0; j < n; j++) {
                StateVersion<Object, Long> p = partitions.get(j);
                assertEquals(0, p.changes(), "a moved version changed no key");
                assertEquals(3 * INTERVAL, p.batchTime());
                for (Map.Entry<Object, Entry> e : contents(p).entrySet()) {
                    assertEquals(j, to.getPartition(e.getKey()), "key " + e.getKey() + " in partition " + j);
                    assertEquals(null, union.put(e.getKey(), e.getValue()), "key " + e.getKey() + " moved once");
                }
            }
            assertEquals(expected, union, n + " partitions");

            // At 7 s the keys last updated at 1 s time out (5 s timeout), in the moved state as in the original.
            MapWithStateBatch<Object, Long, String> next = step(original, 7 * INTERVAL, List.of());
            Set<String> timedOut = new HashSet<>();
            Map<Object, Entry> after = new HashMap<>();
            for (StateVersion<Object, Long> p : partitions) {
                MapWithStateBatch<Object, Long, String> b = step(p, 7 * INTERVAL, List.of());
                b.mapped().forEach(timedOut::add);
                after.putAll(contents(b.state()));
            }
            assertEquals(10_000 - 100 - 50 - 20, next.mapped().size(), "the keys idle since 1 s time out");
            assertEquals(new HashSet<>(next.mapped()), timedOut);
            assertEquals(contents(next.state()), after);
        }
    }

    @ParameterizedTest
    @MethodSource("io.sluice.state.internal.Backends#all")
    void arenaKeysMoveWholeWithTheirStateAndTimes(StateBackend backend) throws Exception {
        assertMovesExactly(backend, i -> "key" + i);
    }

    @ParameterizedTest
    @MethodSource("io.sluice.state.internal.Backends#all")
    void objectKeysMoveWholeWithTheirStateAndTimes(StateBackend backend) throws Exception {
        assertMovesExactly(backend, i -> (long) i * 7919);
    }

    @Test
    void aNewPartitionReadsOnlyTheOldPartitionsHoldingItsKeyGroups() {
        KeyGroupPartitioner four = new KeyGroupPartitioner(new KeyGroups(KeyGroups.DEFAULT_COUNT), 4);
        KeyGroupPartitioner eight = four.withPartitions(8);
        for (int j = 0; j < 8; j++) {
            assertEquals(List.of(j / 2), MovedStateRDD.sourcesOf(j, four, eight), "4 -> 8, partition " + j);
        }
        assertEquals(List.of(0, 1, 2, 3), MovedStateRDD.sourcesOf(0, eight, four.withPartitions(2)));
        assertEquals(List.of(4, 5, 6, 7), MovedStateRDD.sourcesOf(1, eight, four.withPartitions(2)));
        // 3 -> 5 does not align: groups [0, 43) [43, 86) [86, 128) against [0, 26) [26, 52) [52, 77) ...
        KeyGroupPartitioner three = four.withPartitions(3);
        KeyGroupPartitioner five = four.withPartitions(5);
        assertEquals(List.of(List.of(0), List.of(0, 1), List.of(1), List.of(1, 2), List.of(2)),
                java.util.stream.IntStream.range(0, 5).mapToObj(j -> MovedStateRDD.sourcesOf(j, three, five)).toList());
    }

    @Test
    void aKeyHashCodeIsReadFromItsBytesWithoutMakingTheKey() {
        StateTable table = new StateTable(4);
        for (String k : List.of("", "a", "hot3", "k\u00e9y", "a longer key of forty characters or so....")) {
            table.put(k, 1L, 1);
            assertEquals(k.hashCode(), table.keyHashCodeAt(table.find(k)), k);
            assertEquals(new KeyGroups(128).groupOf(k), new KeyGroups(128).groupOfHash(k.hashCode()));
        }
        assertTrue(table.keysInArena());
    }
}
