package io.sluice.dstream.state;

import static io.sluice.testkit.Collected.multisets;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.PairDStream;
import io.sluice.dstream.testing.OnEachStateBackend;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.Optional;
import org.apache.spark.api.java.function.Function2;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import scala.Tuple2;

class UpdateStateByKeyTest extends OnEachStateBackend {
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

    private static final Function2<List<Integer>, Optional<Integer>, Optional<Integer>> SUM = (values, state) -> {
        int sum = state.orElse(0);
        for (int v : values) {
            sum += v;
        }
        return Optional.of(sum);
    };

    @Test
    void runningCountHoldsTheWholeStateEveryBatch() {
        try (StreamTester t = new StreamTester()) {
            Collected<Tuple2<String, Integer>> out = t.collect(t.input(WORDS).mapToPair(w -> new Tuple2<>(w, 1))
                    .updateStateByKey(SUM));
            t.runBatches(6);
            assertEquals(multisets(List.of(
                    List.of(t("a", 1)),
                    List.of(t("a", 2), t("b", 1)),
                    List.of(t("a", 3), t("b", 2), t("c", 1)),
                    List.of(t("a", 4), t("b", 3), t("c", 1)),
                    List.of(t("a", 5), t("b", 3), t("c", 1)),
                    List.of(t("a", 5), t("b", 3), t("c", 1)))), out.unordered());
        }
    }

    @Test
    void functionIsCalledForEveryKeyEveryBatchAndEmptyRemoves() {
        // each key lives for two batches without data after its last record, counting its idle calls
        Function2<List<Integer>, Optional<Integer>, Optional<Integer>> idleCount = (values, state) -> {
            if (!values.isEmpty()) {
                return Optional.of(0);
            }
            int idle = state.get() + 1;
            return idle > 2 ? Optional.empty() : Optional.of(idle);
        };
        try (StreamTester t = new StreamTester()) {
            Collected<Tuple2<String, Integer>> out = t.collect(t.input(List.of(List.of("a", "b"), List.of("b"),
                    List.of(), List.of(), List.of())).mapToPair(w -> new Tuple2<>(w, 1))
                    .updateStateByKey(idleCount, 3));
            t.runBatches(5);
            assertEquals(multisets(List.of(
                    List.of(t("a", 0), t("b", 0)),
                    List.of(t("a", 1), t("b", 0)),
                    List.of(t("a", 2), t("b", 1)),
                    List.of(t("b", 2)),
                    List.of())), out.unordered());
        }
    }

    @Test
    void initialRddIsTheStateBeforeTheFirstBatch() {
        try (StreamTester t = new StreamTester()) {
            var initial = t.sparkContext().parallelizePairs(List.of(t("a", 10), t("z", 5)));
            PairDStream<String, Integer> counts = t.input(WORDS).mapToPair(w -> new Tuple2<>(w, 1))
                    .updateStateByKey(SUM, new HashPartitioner(2), initial);
            Collected<Tuple2<String, Integer>> out = t.collect(counts);
            t.runBatches(2);
            assertEquals(multisets(List.of(
                    List.of(t("a", 11), t("z", 5)),
                    List.of(t("a", 12), t("b", 1), t("z", 5)))), out.unordered());
        }
    }

    @Test
    void valuesArriveInOrderWithinAKey() {
        Function2<List<String>, Optional<String>, Optional<String>> concat = (values, state) -> {
            List<String> all = new ArrayList<>();
            if (state.isPresent()) {
                all.add(state.get());
            }
            all.addAll(values);
            return Optional.of(String.join("", all));
        };
        try (StreamTester t = new StreamTester().partitions(1)) {
            Collected<Tuple2<String, String>> out = t.collect(t.input(List.of(
                    List.of(new Tuple2<>("k", "1"), new Tuple2<>("k", "2"), new Tuple2<>("j", "x")),
                    List.of(new Tuple2<>("k", "3")))).mapToPair(p -> p).updateStateByKey(concat));
            t.runBatches(2);
            assertEquals(multisets(List.of(
                    List.of(new Tuple2<>("k", "12"), new Tuple2<>("j", "x")),
                    List.of(new Tuple2<>("k", "123"), new Tuple2<>("j", "x")))), out.unordered());
        }
    }
}
