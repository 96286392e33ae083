package io.sluice.dstream.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.MapWithStateDStream;
import io.sluice.dstream.testing.OnEachStateBackend;
import io.sluice.rdd.internal.Exchange;
import io.sluice.rdd.internal.Lineage;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.SharedSpark;
import io.sluice.testkit.StreamTester;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.api.java.Optional;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.BlockId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import scala.Option;
import scala.Tuple2;
import scala.collection.immutable.Seq;

/**
 * State lineage is cut every checkpoint interval, so it stays short over any number of batches, and nothing a
 * batch kept for its own computation outlives it.
 */
class StateLineageTest extends OnEachStateBackend {
    private static final int BATCHES = 45;

    private static List<List<String>> input() {
        List<List<String>> batches = new ArrayList<>();
        for (int b = 0; b < BATCHES; b++) {
            batches.add(List.of("k" + (b % 3), "k" + (b % 5)));
        }
        return batches;
    }

    @Test
    void localCutsKeepLineageShortAndStateCorrect() {
        var sc = SharedSpark.context().sc();
        Option<String> before = sc.checkpointDir();
        sc.checkpointDir_$eq(Option.empty()); // no directory: local checkpointing
        try (StreamTester t = new StreamTester()) {
            List<Integer> depths = Collections.synchronizedList(new ArrayList<>());
            List<Map<String, Integer>> snapshots = Collections.synchronizedList(new ArrayList<>());
            MapWithStateDStream<String, Integer, Integer, Integer> counts = t.input(input())
                    .mapToPair(w -> new Tuple2<>(w, 1))
                    .mapWithState(StateSpec.function((String k, Optional<Integer> v, State<Integer> s) -> {
                        s.update(s.getOption().orElse(0) + v.get());
                        return s.get();
                    }).initialState(SharedSpark.context().parallelizePairs(List.of(new Tuple2<>("k0", 100)))))
                    .checkpoint(Duration.ofSeconds(5));
            counts.foreachRDD(rdd -> {
                rdd.count();
                depths.add(Lineage.depth(rdd.rdd()));
            });
            Set<Integer> exchanges = Collections.synchronizedSet(new java.util.HashSet<>());
            counts.stateSnapshots().foreachRDD(rdd -> {
                exchangesIn(rdd.rdd(), exchanges);
                Map<String, Integer> m = new TreeMap<>();
                rdd.collect().forEach(p -> m.put(p._1(), p._2()));
                snapshots.add(m);
            });
            t.runBatches(BATCHES);
            int deepest = depths.stream().mapToInt(Integer::intValue).max().orElseThrow();
            assertTrue(deepest <= 5 * 2 + 6, "lineage depth " + deepest + " over " + BATCHES + " batches");
            Map<String, Integer> expected = new TreeMap<>(Map.of("k0", 100));
            input().forEach(b -> b.forEach(w -> expected.merge(w, 1, Integer::sum)));
            assertEquals(expected, snapshots.get(BATCHES - 1));
            // each batch's records were exchanged to the state's partitions in memory, and released after it
            assertTrue(exchanges.size() > 0, "no exchange of this test's batches is known");
            Seq<BlockId> kept = sc.env().blockManager().getMatchingBlockIds(
                    block -> block.asRDDId().exists(rdd -> exchanges.contains(rdd.rddId())));
            assertEquals(0, kept.size(), "blocks kept after their batches: " + kept);
        } finally {
            sc.checkpointDir_$eq(before);
        }
    }

    /** Adds the ids of the exchange buckets in {@code rdd}'s lineage (down to a cut) to {@code ids}. */
    private static void exchangesIn(RDD<?> rdd, Set<Integer> ids) {
        if (rdd.name() != null && rdd.name().startsWith(Exchange.BUCKETS_NAME)) {
            ids.add(rdd.id());
        }
        scala.collection.Iterator<org.apache.spark.Dependency<?>> deps = rdd.dependencies().iterator();
        while (deps.hasNext()) {
            exchangesIn(deps.next().rdd(), ids);
        }
    }
}
