package io.sluice.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.Optional;
import org.apache.spark.api.java.function.Function2;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import scala.Tuple2;

class UpdateStateTransitionTest {
    private static Map<String, Integer> contents(StateVersion<String, Integer> v) throws Exception {
        Map<String, Integer> m = new HashMap<>();
        v.forEach((k, s, t) -> m.put(k, s));
        return m;
    }

    @ParameterizedTest
    @MethodSource("io.sluice.state.internal.Backends#all")
    void callsTheFunctionForEveryKeyOnceWithItsValuesInOrder(StateBackend backend) throws Exception {
        List<String> calls = new ArrayList<>();
        Function2<List<Integer>, Optional<Integer>, Optional<Integer>> f = (values, state) -> {
            calls.add(values + "/" + (state.isPresent() ? state.get() : "-"));
            int sum = state.orElse(0);
            for (int v : values) {
                sum += v;
            }
            return sum > 10 ? Optional.empty() : Optional.of(sum);
        };
        UpdateStateTransition<String, Integer, Integer> t = new UpdateStateTransition<>(f, "test");
        StateVersion<String, Integer> v1 = t.apply(backend.empty(1000, false),
                List.of(new Tuple2<>("a", 1), new Tuple2<>("b", 5), new Tuple2<>("a", 2)).iterator(), 1000);
        assertEquals(Map.of("a", 3, "b", 5), contents(v1));
        assertEquals(List.of("[1, 2]/-", "[5]/-"), calls.stream().sorted().toList());
        calls.clear();
        StateVersion<String, Integer> v2 = t.apply(v1, List.of(new Tuple2<>("b", 6), new Tuple2<>("c", 1)).iterator(),
                2000);
        assertEquals(Map.of("a", 3, "c", 1), contents(v2));
        assertEquals(List.of("[1]/-", "[6]/5", "[]/3"), calls.stream().sorted().toList());
        assertEquals(Map.of("a", 3, "b", 5), contents(v1), "the previous version is unchanged");
    }
}
