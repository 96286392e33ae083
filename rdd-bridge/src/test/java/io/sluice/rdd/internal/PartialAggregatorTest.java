package io.sluice.rdd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

class PartialAggregatorTest {
    private static List<Tuple2<String, Integer>> drain(List<Tuple2<String, Integer>> input, int maxEntries) {
        List<Tuple2<String, Integer>> out = new ArrayList<>();
        new PartialAggregator<String, Integer, Integer>(input.iterator(), v -> v, Integer::sum, maxEntries)
                .forEachRemaining(out::add);
        return out;
    }

    private static Map<String, Integer> sums(List<Tuple2<String, Integer>> records) {
        Map<String, Integer> sums = new HashMap<>();
        records.forEach(r -> sums.merge(r._1(), r._2(), Integer::sum));
        return sums;
    }

    @Test
    void combinesEveryKeyOnceWhenTheTableNeverFills() {
        List<Tuple2<String, Integer>> input = List.of(new Tuple2<>("a", 1), new Tuple2<>("b", 2),
                new Tuple2<>("a", 3), new Tuple2<>(null, 4), new Tuple2<>(null, 5));
        List<Tuple2<String, Integer>> out = drain(input, 1000);
        assertEquals(3, out.size());
        Map<String, Integer> expected = new HashMap<>();
        expected.put("a", 4);
        expected.put("b", 2);
        expected.put(null, 9);
        assertEquals(expected, sums(out));
    }

    @Test
    void boundedTableFlushesAndStillAddsUp() {
        Random random = new Random(7);
        List<Tuple2<String, Integer>> input = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            input.add(new Tuple2<>("k" + random.nextInt(3_000), random.nextInt(10)));
        }
        List<Tuple2<String, Integer>> out = drain(input, 100);
        assertEquals(sums(input), sums(out));
        assertTrue(out.size() > 3_000, "a table of 100 entries must have flushed more than once");
    }

    @Test
    void emptyInputGivesNothing() {
        assertEquals(List.of(), drain(List.of(), 10));
    }
}
