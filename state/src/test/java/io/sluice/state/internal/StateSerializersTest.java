package io.sluice.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.KeyGroups;
import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import scala.Tuple2;

/** State RDD records through Kryo as Spark configures it (references on), as in RDD checkpoints. */
class StateSerializersTest {
    private static Kryo sparkLikeKryo() {
        Kryo kryo = new Kryo();
        kryo.setReferences(true);
        kryo.register(Tuple2.class);
        new StateSerializers().registerClasses(kryo);
        return kryo;
    }

    private static Object roundTrip(Kryo kryo, Object o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (Output out = new Output(bytes)) {
            kryo.writeClassAndObject(out, o);
        }
        return kryo.readClassAndObject(new Input(bytes.toByteArray()));
    }

    @ParameterizedTest
    @MethodSource("io.sluice.state.internal.Backends#all")
    void mapWithStateBatchRoundTripsWithTimes(StateBackend backend) throws Exception {
        MapWithStateTransition<String, Integer, Long, String> t = new MapWithStateTransition<>(
                (time, key, value, state) -> {
                    state.update(state.getOption().orElse(0L) + value.get());
                    return key + "=" + state.get();
                }, 10_000, "test");
        MapWithStateBatch<String, Long, String> batch = t.apply(backend.empty(1000, true),
                List.of(new Tuple2<>("a", 1), new Tuple2<>("b", 2), new Tuple2<>("a", 3)).iterator(), 1000);
        Kryo kryo = sparkLikeKryo();
        @SuppressWarnings("unchecked")
        MapWithStateBatch<String, Long, String> copy = (MapWithStateBatch<String, Long, String>) roundTrip(kryo, batch);
        assertEquals(batch.mapped(), copy.mapped());
        Map<String, Long> state = new HashMap<>();
        copy.state().forEach((k, s, time) -> state.put(k, s));
        assertEquals(Map.of("a", 4L, "b", 2L), state);
        assertEquals(1000, copy.state().lastUpdate("a"));
        assertTrue(copy.state().timed(), "timeouts survive");
        assertEquals(backend, copy.state().backend(), "the copy is in the same backend");
        assertTrue(kryo.getReferences(), "reference tracking is restored after the entries");
    }

    @Test
    void keyGroupPartitionerRoundTrips() {
        KeyGroupPartitioner p = new KeyGroupPartitioner(new KeyGroups(128), 4);
        assertEquals(p, roundTrip(sparkLikeKryo(), p));
    }
}
