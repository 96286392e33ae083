package io.sluice.dstream.state;

import static io.sluice.testkit.Collected.multisets;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.MapWithStateDStream;
import io.sluice.dstream.testing.OnEachStateBackend;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.util.List;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import scala.Tuple2;

class MapWithStateTest extends OnEachStateBackend {
    private static final List<List<String>> WORDS = List.of(
            List.of("a"),
            List.of("a", "b"),
            List.of("a", "b", "c"),
            List.of("a", "b"),
            List.of("a"),
            List.of());

    private static Tuple2<String, Integer> t(String k, int v) {
        return new Tuple2<>(k, v);
    }

    /** Running count: emits (word, count so far) for every record. */
    private static StateSpec<String, Integer, Integer, Tuple2<String, Integer>> runningCount() {
        return StateSpec.function((String key, Optional<Integer> one, State<Integer> state) -> {
            int sum = one.orElse(0) + (state.exists() ? state.get() : 0);
            state.update(sum);
            return new Tuple2<>(key, sum);
        });
    }

    @Test
    void runningCountEmitsEveryRecordAndSnapshotsTheState() {
        try (StreamTester t = new StreamTester()) {
            MapWithStateDStream<String, Integer, Integer, Tuple2<String, Integer>> counted = t.input(WORDS)
                    .mapToPair(w -> new Tuple2<>(w, 1)).mapWithState(runningCount());
            Collected<Tuple2<String, Integer>> out = t.collect(counted);
            Collected<Tuple2<String, Integer>> snapshots = t.collect(counted.stateSnapshots());
            t.runBatches(6);
            assertEquals(multisets(List.of(
                    List.of(t("a", 1)),
                    List.of(t("a", 2), t("b", 1)),
                    List.of(t("a", 3), t("b", 2), t("c", 1)),
                    List.of(t("a", 4), t("b", 3)),
                    List.of(t("a", 5)),
                    List.of())), out.unordered());
            assertEquals(multisets(List.of(
                    List.of(t("a", 1)),
                    List.of(t("a", 2), t("b", 1)),
                    List.of(t("a", 3), t("b", 2), t("c", 1)),
                    List.of(t("a", 4), t("b", 3), t("c", 1)),
                    List.of(t("a", 5), t("b", 3), t("c", 1)),
                    List.of(t("a", 5), t("b", 3), t("c", 1)))), snapshots.unordered());
        }
    }

    @Test
    void recordsOfOneKeyPassThroughTheFunctionInOrder() {
        List<List<Tuple2<String, Integer>>> input = List.of(
                List.of(t("k", 1), t("k", 2), t("k", 3), t("j", 10)),
                List.of(t("k", 4), t("j", 20), t("k", 5)));
        try (StreamTester t = new StreamTester().partitions(1)) {
            MapWithStateDStream<String, Integer, String, String> seen = t.input(input)
                    .mapToPair(p -> p)
                    .mapWithState(StateSpec.function((String k, Optional<Integer> v, State<String> s) -> {
                        String next = s.getOption().orElse("") + v.get();
                        s.update(next);
                        return k + ":" + next;
                    }));
            Collected<String> out = t.collect(seen);
            t.runBatches(2);
            assertEquals(multisets(List.of(
                    List.of("k:1", "k:12", "k:123", "j:10"),
                    List.of("k:1234", "j:1020", "k:12345"))), out.unordered());
        }
    }

    @Test
    void removeDropsTheKeyAndANewRecordStartsOver() {
        // "-" removes the key's state; the batch-time variant emits only on removal
        List<List<Tuple2<String, String>>> input = List.of(
                List.of(new Tuple2<>("a", "x"), new Tuple2<>("b", "y")),
                List.of(new Tuple2<>("a", "-")),
                List.of(new Tuple2<>("a", "z")),
                List.of());
        try (StreamTester t = new StreamTester()) {
            MapWithStateDStream<String, String, String, String> removed = t.input(input).mapToPair(p -> p)
                    .mapWithState(StateSpec.function(
                            (io.sluice.rdd.Time time, String k, Optional<String> v, State<String> s) -> {
                                if (v.get().equals("-")) {
                                    String was = s.get();
                                    s.remove();
                                    return Optional.of(k + " removed at " + time.milliseconds() + " was " + was);
                                }
                                s.update(s.getOption().orElse("") + v.get());
                                return Optional.empty();
                            }));
            Collected<String> out = t.collect(removed);
            Collected<Tuple2<String, String>> snapshots = t.collect(removed.stateSnapshots());
            t.runBatches(4);
            long second = t.completedBatches().get(1).batchTime().milliseconds();
            assertEquals(List.of(List.of(), List.of("a removed at " + second + " was x"), List.of(), List.of()),
                    out.batches());
            assertEquals(multisets(List.of(
                    List.of(new Tuple2<>("a", "x"), new Tuple2<>("b", "y")),
                    List.of(new Tuple2<>("b", "y")),
                    List.of(new Tuple2<>("a", "z"), new Tuple2<>("b", "y")),
                    List.of(new Tuple2<>("a", "z"), new Tuple2<>("b", "y")))), snapshots.unordered());
        }
    }

    @Test
    void initialStateIsWhereTheFirstBatchStarts() {
        try (StreamTester t = new StreamTester()) {
            var initial = t.sparkContext().parallelizePairs(List.of(t("a", 100), t("z", 7)));
            MapWithStateDStream<String, Integer, Integer, Tuple2<String, Integer>> counted = t.input(WORDS)
                    .mapToPair(w -> new Tuple2<>(w, 1)).mapWithState(runningCount().initialState(initial)
                            .numPartitions(3));
            Collected<Tuple2<String, Integer>> out = t.collect(counted);
            Collected<Tuple2<String, Integer>> snapshots = t.collect(counted.stateSnapshots());
            t.runBatches(2);
            assertEquals(multisets(List.of(
                    List.of(t("a", 101)),
                    List.of(t("a", 102), t("b", 1)))), out.unordered());
            assertEquals(multisets(List.of(
                    List.of(t("a", 101), t("z", 7)),
                    List.of(t("a", 102), t("b", 1), t("z", 7)))), snapshots.unordered());
        }
    }
}
