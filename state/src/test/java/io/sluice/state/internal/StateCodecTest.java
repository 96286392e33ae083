package io.sluice.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import scala.Tuple2;

/** The recovery seam: snapshot and delta encoding of one partition's state, and rebuilding from them. */
class StateCodecTest {
    private static final long INTERVAL = 1000;

    /** "+" adds one, "-" removes the key. */
    private static final MappingFunction<String, String, Long, String> FUNCTION = (time, key, value, state) -> {
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

    private static final MapWithStateTransition<String, String, Long, String> TRANSITION =
            new MapWithStateTransition<>(FUNCTION, 5 * INTERVAL, "test");

    private record Entry(Object state, long lastUpdate) {
    }

    private static Map<Object, Entry> contents(StateVersion<?, ?> v) throws Exception {
        Map<Object, Entry> m = new HashMap<>();
        v.forEach((k, s, t) -> m.put(k, new Entry(s, t)));
        return m;
    }

    private static StateVersion<String, Long> step(StateVersion<String, Long> v, long time, String... ops) {
        List<Tuple2<String, String>> records = new ArrayList<>();
        for (String op : ops) {
            records.add(new Tuple2<>(op.substring(1), op.substring(0, 1)));
        }
        return TRANSITION.apply(v, records.iterator(), time).state();
    }

    private static byte[] snapshot(StateCodec codec, StateVersion<?, ?> v) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        codec.writeSnapshot(v, out);
        return out.toByteArray();
    }

    private static <K, S> byte[] delta(StateCodec codec, StateVersion<K, S> v, long since) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        codec.writeDelta(v, since, out);
        return out.toByteArray();
    }

    @ParameterizedTest
    @MethodSource("io.sluice.state.internal.Backends#all")
    void snapshotThenDeltasRebuildTheStateWithUpdateTimes(StateBackend backend) throws Exception {
        StateCodec codec = new StateCodec();
        StateVersion<String, Long> v1 = step(backend.empty(INTERVAL, true), INTERVAL, "+a", "+b", "+c", "+a");
        StateVersion<String, Long> v2 = step(v1, 2 * INTERVAL, "-b", "+d");
        StateVersion<String, Long> v3 = step(v2, 3 * INTERVAL, "+b", "-c", "+a");
        byte[] snap = snapshot(codec, v1);
        byte[] d12 = delta(codec, v2, INTERVAL);
        byte[] d23 = delta(codec, v3, 2 * INTERVAL);
        StateVersion<String, Long> restored = codec.restore(backend, new ByteArrayInputStream(snap),
                List.of(new ByteArrayInputStream(d12), new ByteArrayInputStream(d23)),
                List.of("snap", "d12", "d23"));
        assertEquals(contents(v3), contents(restored));
        assertEquals(Map.of("a", new Entry(3L, 3 * INTERVAL), "b", new Entry(1L, 3 * INTERVAL),
                "d", new Entry(1L, 2 * INTERVAL)), contents(restored));
        // the restored state times keys out from their recorded update times: d (updated at 2 s) at 8 s
        StateVersion<String, Long> at8 = TRANSITION.apply(restored, List.<Tuple2<String, String>>of().iterator(),
                8 * INTERVAL).state();
        assertEquals(Map.of("a", new Entry(3L, 3 * INTERVAL), "b", new Entry(1L, 3 * INTERVAL)), contents(at8));
        // a delta reaching over two batches equals the two deltas
        StateVersion<String, Long> viaOne = codec.applyDelta(codec.readSnapshot(new ByteArrayInputStream(snap)),
                new ByteArrayInputStream(delta(codec, v3, INTERVAL)));
        assertEquals(contents(v3), contents(viaOne));
    }

    /** Checkpoints mean the same on both backends: a job may change backend between deployments, either way. */
    @Test
    void stateWrittenByOneBackendRestoresIntoTheOther() throws Exception {
        List<StateBackend> backends = Backends.all().toList();
        for (StateBackend from : backends) {
            for (StateBackend to : backends) {
                StateCodec codec = new StateCodec();
                StateVersion<String, Long> v1 = step(from.empty(INTERVAL, true), INTERVAL, "+a", "+b", "+c");
                StateVersion<String, Long> v2 = step(v1, 2 * INTERVAL, "-b", "+d", "+a");
                StateVersion<String, Long> restored = codec.restore(to, new ByteArrayInputStream(snapshot(codec, v1)),
                        List.of(new ByteArrayInputStream(delta(codec, v2, INTERVAL))), List.of("snap", "delta"));
                assertEquals(to, restored.backend(), from + " -> " + to);
                assertEquals(contents(v2), contents(restored), from + " -> " + to);
                StateVersion<String, Long> next = step(restored, 8 * INTERVAL, "+c");
                assertEquals(Map.of("c", new Entry(2L, 8 * INTERVAL)), contents(next),
                        from + " -> " + to + ": the restored keys time out from their recorded update times");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.sluice.state.internal.Backends#all")
    void deltaMustBeAppliedToTheStateItWasTakenSince(StateBackend backend) throws Exception {
        StateCodec codec = new StateCodec();
        StateVersion<String, Long> v1 = step(backend.empty(INTERVAL, true), INTERVAL, "+a");
        StateVersion<String, Long> v2 = step(v1, 2 * INTERVAL, "+b");
        StateVersion<String, Long> v3 = step(v2, 3 * INTERVAL, "+c");
        IOException e = assertThrows(IOException.class, () -> codec.applyDelta(v1,
                new ByteArrayInputStream(delta(codec, v3, 2 * INTERVAL))));
        assertTrue(e.getMessage().contains("applies to the state of batch 2000"), e.getMessage());
        assertThrows(IOException.class, () -> codec.readSnapshot(new ByteArrayInputStream(delta(codec, v3, 0))));
        assertThrows(IOException.class, () -> codec.readSnapshot(new ByteArrayInputStream(new byte[] {1, 2, 3, 4})));
    }

    @ParameterizedTest
    @MethodSource("io.sluice.state.internal.Backends#all")
    void manyRemovalsForgetOldDeltas(StateBackend backend) throws Exception {
        StateVersion<String, Long> v = backend.empty(INTERVAL, false);
        List<String> adds = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            adds.add("+k" + i);
        }
        v = step(v, INTERVAL, adds.toArray(String[]::new));
        List<String> removes = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            removes.add("-k" + i);
        }
        StateVersion<String, Long> after = step(v, 2 * INTERVAL, removes.toArray(String[]::new));
        StateCodec codec = new StateCodec();
        assertFalse(codec.canWriteDelta(after, INTERVAL), "2,000 removals exceed what 1,000 keys remember");
        assertThrows(IllegalStateException.class, () -> delta(codec, after, INTERVAL));
        assertTrue(codec.canWriteDelta(after, 2 * INTERVAL));
    }

    /** A key type the application did not register. */
    static final class Unregistered implements Serializable {
        private int id;

        Unregistered() {
        }

        Unregistered(int id) {
            this.id = id;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Unregistered u && u.id == id;
        }

        @Override
        public int hashCode() {
            return id;
        }
    }

    @ParameterizedTest
    @MethodSource("io.sluice.state.internal.Backends#all")
    void onlyRegisteredClassesAreWrittenOrRead(StateBackend backend) throws Exception {
        MapWithStateTransition<Unregistered, String, Long, String> t = new MapWithStateTransition<>(
                (time, key, value, state) -> {
                    state.update(1L);
                    return MappingFunction.NONE;
                }, 0, "test");
        StateVersion<Unregistered, Long> v = t.apply(backend.empty(INTERVAL, false),
                List.of(new Tuple2<>(new Unregistered(1), "x")).iterator(), INTERVAL).state();
        assertThrows(RuntimeException.class, () -> snapshot(new StateCodec(), v),
                "an unregistered key class is refused");
        StateCodec registering = new StateCodec(kryo -> kryo.register(Unregistered.class));
        byte[] bytes = snapshot(registering, v);
        assertEquals(contents(v), contents(registering.readSnapshot(new ByteArrayInputStream(bytes))));
        IOException e = assertThrows(IOException.class,
                () -> new StateCodec().readSnapshot(new ByteArrayInputStream(bytes)));
        assertTrue(e.getMessage().contains("cannot decode"), e.getMessage());
    }
}
