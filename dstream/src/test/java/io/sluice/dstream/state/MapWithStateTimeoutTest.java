package io.sluice.dstream.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.MapWithStateDStream;
import io.sluice.dstream.testing.OnEachStateBackend;
import io.sluice.rdd.Time;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import scala.Tuple2;

/**
 * Precise timeouts: with 1 s batches and a 2 s timeout, a key last updated at batch u is idle for longer than
 * the timeout first at batch u + 3 s, and times out exactly there (Spark Streaming would wait for its next
 * checkpoint batch).
 */
class MapWithStateTimeoutTest extends OnEachStateBackend {
    /** Emits "key:count" per record and "key:timeout:count" when timing out. */
    private static StateSpec<String, Integer, Integer, String> countWithTimeout() {
        return StateSpec.function((String key, Optional<Integer> one, State<Integer> state) -> {
            if (state.isTimingOut()) {
                return key + ":timeout:" + state.get();
            }
            int count = state.getOption().orElse(0) + one.get();
            state.update(count);
            return key + ":" + count;
        }).timeout(Duration.ofSeconds(2));
    }

    private static List<List<String>> sorted(Collected<String> out) {
        return out.batches().stream().map(b -> b.stream().sorted().toList()).toList();
    }

    @Test
    void idleKeysTimeOutAtTheFirstBatchPastTheirDeadlineAndComeBackFresh() {
        List<List<String>> input = List.of(
                List.of("a", "b"),   // 1
                List.of("a"),        // 2
                List.of("a"),        // 3
                List.of(),           // 4: b idle since 1 -> > 2 s: times out
                List.of(),           // 5: a idle since 3 for exactly 2 s: not yet
                List.of(),           // 6: a times out
                List.of("a"),        // 7: a comes back with fresh state
                List.of(),           // 8
                List.of(),           // 9
                List.of());          // 10: a times out again
        try (StreamTester t = new StreamTester()) {
            MapWithStateDStream<String, Integer, Integer, String> counted = t.input(input)
                    .mapToPair(w -> new Tuple2<>(w, 1)).mapWithState(countWithTimeout());
            Collected<String> out = t.collect(counted);
            Collected<Tuple2<String, Integer>> snapshots = t.collect(counted.stateSnapshots());
            t.runBatches(10);
            assertEquals(List.of(
                    List.of("a:1", "b:1"),
                    List.of("a:2"),
                    List.of("a:3"),
                    List.of("b:timeout:1"),
                    List.of(),
                    List.of("a:timeout:3"),
                    List.of("a:1"),
                    List.of(),
                    List.of(),
                    List.of("a:timeout:1")), sorted(out));
            List<Map<String, Integer>> states = snapshots.batches().stream().map(b -> {
                Map<String, Integer> m = new TreeMap<>();
                b.forEach(p -> m.put(p._1(), p._2()));
                return m;
            }).toList();
            assertEquals(List.of(Map.of("a", 1, "b", 1), Map.of("a", 2, "b", 1), Map.of("a", 3, "b", 1),
                    Map.of("a", 3), Map.of("a", 3), Map.of(), Map.of("a", 1), Map.of("a", 1), Map.of("a", 1),
                    Map.of()), states);
        }
    }

    @Test
    void dataRefreshesTheDeadlineEvenWhenTheFunctionLeavesTheStateAlone() {
        // "touch" records do not update the state, but still count as activity (as in Spark Streaming)
        List<List<Tuple2<String, String>>> input = List.of(
                List.of(new Tuple2<>("k", "set")),
                List.of(), List.of(new Tuple2<>("k", "touch")), List.of(), List.of(), List.of());
        try (StreamTester t = new StreamTester()) {
            MapWithStateDStream<String, String, String, String> out = t.input(input).mapToPair(p -> p)
                    .mapWithState(StateSpec.function((Time time, String k, Optional<String> v, State<String> s) -> {
                        if (s.isTimingOut()) {
                            return Optional.of("timeout@" + (time.milliseconds() / 1000 % 100));
                        }
                        if (v.get().equals("set")) {
                            s.update("x");
                        }
                        return Optional.<String>empty();
                    }).timeout(Duration.ofSeconds(2)));
            Collected<String> collected = t.collect(out);
            t.runBatches(6);
            long touchedAt = t.completedBatches().get(2).batchTime().milliseconds();
            String expected = "timeout@" + ((touchedAt + 3000) / 1000 % 100);
            assertEquals(List.of(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(expected)),
                    collected.batches());
        }
    }

    @Test
    void initialStateTimesOutFromTheFirstBatch() {
        try (StreamTester t = new StreamTester()) {
            var initial = t.sparkContext().parallelizePairs(List.of(new Tuple2<>("old", 41)));
            Collected<String> out = t.collect(t.input(List.of(List.<String>of("new")))
                    .mapToPair(w -> new Tuple2<>(w, 1)).mapWithState(countWithTimeout().initialState(initial)));
            t.runBatches(5);
            assertEquals(List.of(List.of("new:1"), List.of(), List.of(), List.of("new:timeout:1", "old:timeout:41"),
                    List.of()), sorted(out));
        }
    }
}
