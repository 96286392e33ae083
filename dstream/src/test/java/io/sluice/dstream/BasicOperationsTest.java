package io.sluice.dstream;

import static io.sluice.testkit.Collected.multisets;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

class BasicOperationsTest {
    private static final List<List<String>> LINES = List.of(
            List.of("a b", "b c"),
            List.of(),
            List.of("c c c"));

    @Test
    void wordCountPerBatch() {
        try (StreamTester t = new StreamTester()) {
            Collected<Tuple2<String, Integer>> out = t.collect(t.input(LINES)
                    .flatMap(l -> Arrays.asList(l.split(" ")).iterator())
                    .mapToPair(w -> new Tuple2<>(w, 1))
                    .reduceByKey(Integer::sum));
            t.runBatches(3);
            assertEquals(multisets(List.of(
                    List.of(new Tuple2<>("a", 1), new Tuple2<>("b", 2), new Tuple2<>("c", 1)),
                    List.of(),
                    List.of(new Tuple2<>("c", 3)))), out.unordered());
        }
    }

    @Test
    void countGivesOneElementPerBatchIncludingEmptyOnes() {
        try (StreamTester t = new StreamTester()) {
            Collected<Long> out = t.collect(t.input(LINES).count());
            t.runBatches(4);
            assertEquals(List.of(List.of(2L), List.of(0L), List.of(1L), List.of(0L)), out.batches());
        }
    }
}
