package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * A pair stream's functions see {@code JavaPairRDD}, as in Spark Streaming: the common idioms below are written
 * exactly as Spark Streaming users write them, with implicitly typed lambdas.
 */
class PairRddViewTest {
    private static final List<List<String>> WORDS = List.of(
            List.of("b", "a", "b", "c", "b", "a"),
            List.of(),
            List.of("c"));

    @Test
    void transformToPairSortsByKeyAndForeachRddCollectsAsMap() {
        Map<Long, Map<String, Integer>> maps = new ConcurrentHashMap<>();
        try (StreamTester t = new StreamTester()) {
            PairDStream<String, Integer> counts = t.input(WORDS).mapToPair(w -> new Tuple2<>(w, 1)).reduceByKey(Integer::sum);
            Collected<Tuple2<Integer, String>> byCount = t.collect(counts
                    .mapToPair(Tuple2::swap)
                    .transformToPair(rdd -> rdd.sortByKey(false)));
            counts.foreachRDD((rdd, time) -> {
                maps.put(time.milliseconds(), Map.copyOf(rdd.collectAsMap()));
            });
            t.runBatches(3);
            assertEquals(List.of(
                    List.of(new Tuple2<>(3, "b"), new Tuple2<>(2, "a"), new Tuple2<>(1, "c")),
                    List.of(),
                    List.of(new Tuple2<>(1, "c"))), byCount.batches());
            assertEquals(Map.of(1000L, Map.of("a", 2, "b", 3, "c", 1), 2000L, Map.of(), 3000L, Map.of("c", 1)), maps);
        }
    }

    @Test
    void transformWithJoinsTwoPairStreamsSeenAsPairRdds() {
        try (StreamTester t = new StreamTester()) {
            PairDStream<String, Integer> left = t.input(WORDS).mapToPair(w -> new Tuple2<>(w, 1)).reduceByKey(Integer::sum);
            PairDStream<String, String> right = t.input(WORDS).mapToPair(w -> new Tuple2<>(w, w.toUpperCase()));
            Collected<Tuple2<String, Tuple2<Integer, String>>> joined = t.collect(
                    left.transformWithToPair(right, (a, b, time) -> a.join(b.distinct())));
            t.runBatches(3);
            assertEquals(Collected.multisets(List.of(
                    List.of(new Tuple2<>("a", new Tuple2<>(2, "A")), new Tuple2<>("b", new Tuple2<>(3, "B")),
                            new Tuple2<>("c", new Tuple2<>(1, "C"))),
                    List.of(),
                    List.of(new Tuple2<>("c", new Tuple2<>(1, "C"))))), joined.unordered());
        }
    }

    @Test
    void pairStreamsConvertToAndFromTupleStreams() {
        try (StreamTester t = new StreamTester()) {
            PairDStream<String, Integer> pairs = t.input(WORDS).mapToPair(w -> new Tuple2<>(w, 1));
            DStream<Tuple2<String, Integer>> tuples = pairs.toJavaDStream();
            Collected<Tuple2<String, Integer>> out = t.collect(PairDStream.fromJavaDStream(tuples).reduceByKey(Integer::sum)
                    .union(pairs.filter(kv -> kv._1().equals("c"))));
            t.runBatches(3);
            assertEquals(Collected.multisets(List.of(
                    List.of(new Tuple2<>("a", 2), new Tuple2<>("b", 3), new Tuple2<>("c", 1), new Tuple2<>("c", 1)),
                    List.of(),
                    List.of(new Tuple2<>("c", 1), new Tuple2<>("c", 1)))), out.unordered());
        }
    }
}
