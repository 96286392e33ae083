package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.StreamTester;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * Spark Streaming programs call {@code collectAsMap()} on the pair RDDs of {@code foreachRDD}; Spark collects
 * them into an array of Tuple2, so every pair stream's RDD must carry Tuple2's class tag.
 */
class PairRddCollectAsMapTest {
    private static final List<List<String>> WORDS = List.of(List.of("a", "b", "a"), List.of("b", "c"));

    /** The collectAsMap of each batch's RDD of {@code stream}, as sorted maps. */
    private static <K, V> List<Map<K, V>> collectedAsMaps(PairDStream<K, V> stream) {
        List<Map<K, V>> maps = Collections.synchronizedList(new ArrayList<>());
        stream.foreachRDD(rdd -> maps.add(new TreeMap<>(rdd.collectAsMap())));
        return maps;
    }

    @Test
    void everyPairStreamsRddCollectsAsAMap() {
        try (StreamTester t = new StreamTester()) {
            PairDStream<String, Integer> ones = t.input(WORDS).mapToPair(w -> new Tuple2<>(w, 1));
            PairDStream<String, Integer> counts = ones.reduceByKey(Integer::sum);
            MapWithStateDStream<String, Integer, Integer, String> mapped = ones.mapWithState(StateSpec.function(
                    (String key, Optional<Integer> one, State<Integer> state) -> {
                        state.update(one.orElse(0) + (state.exists() ? state.get() : 0));
                        return key;
                    }));
            List<Map<String, Integer>> pairs = collectedAsMaps(ones.filter(kv -> kv._1().equals("c")));
            List<Map<String, Integer>> reduced = collectedAsMaps(counts);
            List<Map<String, Integer>> snapshots = collectedAsMaps(mapped.stateSnapshots());
            List<Map<String, Integer>> updated = collectedAsMaps(ones.updateStateByKey(
                    (List<Integer> vs, Optional<Integer> s) -> Optional.of(s.orElse(0) + vs.size())));
            List<Map<String, Integer>> windowed = collectedAsMaps(
                    ones.reduceByKeyAndWindow(Integer::sum, Duration.ofSeconds(2)));
            List<Map<String, Integer>> values = collectedAsMaps(counts.mapValues(n -> n * 10));
            List<Map<String, Tuple2<Integer, Integer>>> joined = collectedAsMaps(counts.join(counts));
            List<Map<String, Integer>> inverse = collectedAsMaps(ones.reduceByKeyAndWindow(Integer::sum,
                    (x, y) -> x - y, Duration.ofSeconds(2), Duration.ofSeconds(1)));
            List<Map<String, Integer>> unioned = collectedAsMaps(t.context().union(counts, counts.window(
                    Duration.ofSeconds(1))).reduceByKey(Integer::max));
            t.runBatches(2);
            assertEquals(List.of(Map.of(), Map.of("c", 1)), pairs);
            assertEquals(List.of(Map.of("a", 2, "b", 1), Map.of("b", 1, "c", 1)), reduced);
            assertEquals(List.of(Map.of("a", 2, "b", 1), Map.of("a", 2, "b", 2, "c", 1)), snapshots);
            assertEquals(snapshots, updated);
            assertEquals(snapshots, windowed);
            assertEquals(List.of(Map.of("a", 2, "b", 1), Map.of("a", 2, "b", 2, "c", 1)), inverse);
            assertEquals(reduced, unioned);
            assertEquals(List.of(Map.of("a", 20, "b", 10), Map.of("b", 10, "c", 10)), values);
            assertEquals(List.of(Map.of("a", new Tuple2<>(2, 2), "b", new Tuple2<>(1, 1)),
                    Map.of("b", new Tuple2<>(1, 1), "c", new Tuple2<>(1, 1))), joined);
        }
    }
}
