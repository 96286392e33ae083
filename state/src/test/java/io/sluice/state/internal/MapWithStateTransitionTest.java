package io.sluice.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.rdd.Time;
import io.sluice.state.State;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import scala.Tuple2;

/**
 * The pure mapWithState transition against a reference model that follows Spark Streaming's semantics by
 * brute force (a HashMap, and a scan of all keys for timeouts, every batch). Random batches over enough keys
 * to use deltas, compactions and timeouts; every batch is also computed twice from the same previous version
 * (a retry) and the previous version must be unchanged afterwards.
 */
class MapWithStateTransitionTest {
    private static final long INTERVAL = 1000;

    /** v % 11 == 0 removes, v % 5 == 0 only reads, else adds v; emits "key=state" or "key timed out". */
    private static final MappingFunction<String, Integer, Long, String> FUNCTION = (time, key, value, state) -> {
        if (state.isTimingOut()) {
            return key + " timed out with " + state.get();
        }
        int v = value.get();
        if (v % 11 == 0) {
            if (state.exists()) {
                state.remove();
            }
            return MappingFunction.NONE;
        }
        if (v % 5 == 0) {
            return key + " read " + state.getOption().orElse(-1L);
        }
        state.update(state.getOption().orElse(0L) + v);
        return key + "=" + state.get();
    };

    private record Entry(long value, long time) {
    }

    /** Spark Streaming's semantics, with a scan of all keys for timeouts at every batch. */
    private static final class Model {
        final Map<String, Entry> state = new HashMap<>();
        final long timeout;

        Model(long timeout) {
            this.timeout = timeout;
        }

        List<String> apply(List<Tuple2<String, Integer>> records, long time) throws Exception {
            List<String> out = new ArrayList<>();
            StateSlot<Long> slot = new StateSlot<>();
            for (Tuple2<String, Integer> r : records) {
                Entry e = state.get(r._1());
                slot.wrap(e != null, e == null ? null : e.value());
                Object emitted = FUNCTION.call(Time.ofMillis(time), r._1(), Optional.of(r._2()), slot);
                if (slot.isRemoved()) {
                    state.remove(r._1());
                } else if (slot.isUpdated() || (slot.exists() && timeout > 0)) {
                    state.put(r._1(), new Entry(slot.get(), time));
                }
                if (emitted != MappingFunction.NONE) {
                    out.add((String) emitted);
                }
            }
            if (timeout > 0) {
                List<String> expired = new ArrayList<>();
                state.forEach((k, e) -> {
                    if (e.time() < time - timeout) {
                        expired.add(k);
                    }
                });
                for (String k : expired) {
                    slot.wrapTimingOut(state.remove(k).value());
                    out.add((String) FUNCTION.call(Time.ofMillis(time), k, Optional.empty(), slot));
                }
            }
            return out;
        }
    }

    private static Map<String, Entry> contents(StateVersion<String, Long> v) throws Exception {
        Map<String, Entry> m = new HashMap<>();
        v.forEach((k, s, t) -> m.put(k, new Entry(s, t)));
        assertEquals(m.size(), v.size(), "size of " + v);
        return m;
    }

    private static List<String> sorted(List<String> l) {
        List<String> c = new ArrayList<>(l);
        Collections.sort(c);
        return c;
    }

    private static boolean run(StateBackend backend, long timeout, int keys, long seed) throws Exception {
        Random random = new Random(seed);
        Model model = new Model(timeout);
        MapWithStateTransition<String, Integer, Long, String> transition =
                new MapWithStateTransition<>(FUNCTION, timeout, "test");
        StateVersion<String, Long> version = backend.empty(INTERVAL, timeout > 0);
        boolean sawDelta = false;
        for (int b = 1; b <= 30; b++) {
            long time = b * INTERVAL;
            int n = b % 7 == 0 ? keys * 2 : b % 3 == 0 ? 0 : random.nextInt(keys / 8 + 1);
            int hot = b < 15 ? keys : keys / 3; // later batches touch fewer keys, so timeouts fire
            List<Tuple2<String, Integer>> records = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                records.add(new Tuple2<>("k" + random.nextInt(hot), 1 + random.nextInt(60)));
            }
            Map<String, Entry> before = contents(version);
            MapWithStateBatch<String, Long, String> first = transition.apply(version, records.iterator(), time);
            MapWithStateBatch<String, Long, String> retry = transition.apply(version, records.iterator(), time);
            assertEquals(before, contents(version), "batch " + b + " left the previous version unchanged");
            List<String> expected = model.apply(records, time);
            assertEquals(sorted(expected), sorted(first.mapped()), "output of batch " + b);
            assertEquals(first.mapped(), retry.mapped(), "retried output of batch " + b);
            Map<String, Entry> expectedState = new HashMap<>(model.state);
            assertEquals(expectedState, contents(first.state()), "state after batch " + b);
            assertEquals(expectedState, contents(retry.state()), "retried state after batch " + b);
            // data records come first, in order
            int data = (int) expected.stream().filter(s -> !s.contains("timed out")).count();
            assertEquals(expected.subList(0, data), first.mapped().subList(0, data), "record order, batch " + b);
            assertEquals(expected.size() - data, first.state().timedOut(), "keys timed out in batch " + b);
            assertEquals(expectedState.size(), first.state().size(), "keys after batch " + b);
            // on RocksDB the retry found the store's head taken by the first attempt and wrote into a copy
            sawDelta |= first.state() instanceof HeapStateVersion<String, Long> h ? h.deltaEntries() > 0
                    : !contents(retry.state()).isEmpty();
            version = first.state();
        }
        return sawDelta;
    }

    @ParameterizedTest
    @MethodSource("io.sluice.state.internal.Backends#all")
    void matchesSparkStreamingSemanticsWithoutTimeout(StateBackend backend) throws Exception {
        assertTrue(run(backend, 0, 12_000, 1), "some batches were kept as deltas over a shared base, or retried "
                + "into a copy");
    }

    @ParameterizedTest
    @MethodSource("io.sluice.state.internal.Backends#all")
    void timeoutsFireExactlyWhenAScanWouldFindThem(StateBackend backend) throws Exception {
        assertTrue(run(backend, 3 * INTERVAL, 12_000, 2), "some batches were kept as deltas over a shared base, or "
                + "retried into a copy");
        run(backend, 1, 3_000, 3);
    }

    @Test
    void timeoutIndexDropsStaleReferences() throws Exception {
        // one hot key updated every batch under a long timeout: its stale references must not pile up
        MapWithStateTransition<String, Integer, Long, String> transition =
                new MapWithStateTransition<>(FUNCTION, 1_000_000 * INTERVAL, "test");
        HeapStateVersion<String, Long> version = HeapStateVersion.empty(INTERVAL, true);
        for (int b = 1; b <= 5000; b++) {
            Iterator<Tuple2<String, Integer>> one = List.of(new Tuple2<>("hot", 1)).iterator();
            version = (HeapStateVersion<String, Long>) transition.apply(version, one, b * INTERVAL).state();
        }
        assertTrue(version.timeouts.references() <= 2 * version.size() + 1024,
                "timeout index holds " + version.timeouts.references() + " references");
        assertEquals(5000L, version.get("hot"));
    }
}
