package io.sluice.dstream;

import static io.sluice.dstream.WindowOperationsTest.S1;
import static io.sluice.dstream.WindowOperationsTest.S3;
import static io.sluice.dstream.WindowOperationsTest.p;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.internal.window.ReducedWindowOperator;
import io.sluice.testkit.StreamTester;
import io.sluice.rdd.internal.Lineage;
import io.sluice.rdd.Time;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Option;
import scala.Tuple2;

/**
 * Incremental windows cut their lineage on their own (every 10 batches of 1 s here, Spark Streaming's
 * default), locally without a checkpoint directory and reliably with one, and never lose what lineage needs.
 */
class WindowLineageTest {
    private static final int KEYS = 3;

    /** Batch b holds (k{b mod 3}, b) and (k{(b+1) mod 3}, 1). */
    static List<List<Tuple2<String, Integer>>> input(int batches) {
        List<List<Tuple2<String, Integer>>> input = new ArrayList<>(batches);
        for (int b = 0; b < batches; b++) {
            input.add(List.of(p("k" + b % KEYS, b), p("k" + (b + 1) % KEYS, 1)));
        }
        return input;
    }

    /** The 3-batch window ending with batch {@code last} (0-based), every key ever seen included. */
    static Map<String, Integer> expectedWindow(List<List<Tuple2<String, Integer>>> input, int last) {
        Map<String, Integer> sums = new TreeMap<>();
        for (int b = 0; b <= last; b++) {
            for (Tuple2<String, Integer> kv : input.get(b)) {
                sums.merge(kv._1(), b > last - 3 ? kv._2() : 0, Integer::sum);
            }
        }
        return sums;
    }

    static Map<String, Integer> asMap(List<Tuple2<String, Integer>> records) {
        Map<String, Integer> m = new TreeMap<>();
        records.forEach(kv -> m.put(kv._1(), kv._2()));
        return m;
    }

    @Test
    void twoThousandBatchesWithoutACheckpointDirectoryKeepLineageShallow() {
        int batches = 2000;
        List<List<Tuple2<String, Integer>>> input = input(batches);
        withoutCheckpointDirectory(() -> {
            // One partition: each batch is one job of two one-task stages, so 2,000 of them stay quick.
            try (StreamTester t = new StreamTester().partitions(1)) {
                AtomicInteger deepest = new AtomicInteger();
                Map<Integer, Map<String, Integer>> checked = new ConcurrentHashMap<>();
                PairDStream<String, Integer> windows = t.input(input).mapToPair(kv -> kv)
                        .reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b, S3, S1, 1, null);
                windows.foreachRDD((rdd, time) -> {
                    List<Tuple2<String, Integer>> records = rdd.collect();
                    int batch = (int) (time.milliseconds() / 1000) - 1;
                    if (batch % 97 == 0 || batch == batches - 1) {
                        checked.put(batch, asMap(records));
                    }
                    deepest.accumulateAndGet(Lineage.depth(rdd.rdd()), Math::max);
                });
                long start = System.nanoTime();
                t.runBatches(batches);
                long millis = (System.nanoTime() - start) / 1_000_000;
                System.out.printf("WindowLineageTest: %d batches in %d ms (%.1f ms per batch), deepest lineage %d%n",
                        batches, millis, millis / (double) batches, deepest.get());
                for (Map.Entry<Integer, Map<String, Integer>> e : checked.entrySet()) {
                    assertEquals(expectedWindow(input, e.getKey()), e.getValue(), "window at batch " + e.getKey());
                }
                assertTrue(checked.containsKey(batches - 1));
                // At most 10 windows between cuts, each read through its cache (two levels in local mode, see
                // LocalCachedRDD), plus the view, the per-batch reduce, its exchange and the input: never near 2,000.
                assertTrue(deepest.get() <= 30, "lineage depth " + deepest.get());
                // Memory stays flat: only the remembered window RDDs (2 x 10 s) are kept.
                assertTrue(windows.operator().rememberedCount() <= 21, "remembered " + windows.operator().rememberedCount());
            }
        });
    }

    @Test
    void rememberedWindowsSurviveLosingTheirBlocksAfterALocalCut() {
        List<List<Tuple2<String, Integer>>> input = input(40);
        withoutCheckpointDirectory(() -> {
            try (StreamTester t = new StreamTester()) {
                PairDStream<String, Integer> windows = t.input(input).mapToPair(kv -> kv)
                        .reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b, S3, S1);
                windows.foreachRDD(rdd -> {
                    rdd.count();
                });
                t.runBatches(40);
                // Windows of 21..40 s are remembered; the cut at 20 s is forgotten, yet 21..29 s descend from it.
                ReducedWindowOperator<?, ?> op = (ReducedWindowOperator<?, ?>) windows.operator();
                for (int s = 21; s <= 29; s++) {
                    JavaRDD<?> state = op.windowState(Time.ofMillis(s * 1000L)).orElseThrow();
                    assertFalse(Lineage.isCut(state), "window at " + s + " s");
                    state.unpersist(true); // as if an executor had lost its blocks
                }
                assertTrue(op.windowState(Time.ofMillis(20_000)).isEmpty(), "the cut at 20 s is forgotten");
                // Recomputing walks back to the cut at 20 s, whose blocks must still be there.
                JavaRDD<Tuple2<String, Integer>> at29 = windows.compute(Time.ofMillis(29_000)).rdd().toJavaRDD();
                assertEquals(expectedWindow(input, 28), asMap(at29.collect()));
            }
        });
    }

    @Test
    void withACheckpointDirectoryCutsAreWrittenThere(@TempDir Path dir) throws Exception {
        List<List<Tuple2<String, Integer>>> input = input(50);
        try (StreamTester t = new StreamTester()) {
            JavaSparkContext sc = t.sparkContext();
            Option<String> before = sc.sc().checkpointDir();
            try {
                t.context().checkpoint(dir.toString());
                AtomicInteger deepest = new AtomicInteger();
                List<Map<String, Integer>> out = new ArrayList<>();
                t.input(input).mapToPair(kv -> kv).reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b, S3, S1)
                        .foreachRDD(rdd -> {
                            out.add(asMap(rdd.collect()));
                            deepest.accumulateAndGet(Lineage.depth(rdd.rdd()), Math::max);
                        });
                t.runBatches(50);
                assertEquals(expectedWindow(input, 49), out.get(49));
                assertTrue(deepest.get() <= 30, "lineage depth " + deepest.get()); // as above
                // Cut every 10 s, remembered for 20 s: the cuts at 30, 40 and 50 s remain; 10 and 20 s were deleted.
                // Only the RDD cuts' directory: progress checkpoints are written (and old ones deleted) by a
                // background thread after the batches, so walking them could meet a file as it goes.
                try (var files = Files.walk(dir.resolve("rdd"))) {
                    assertEquals(3, files.filter(f -> f.getFileName().toString().startsWith("rdd-")).count(),
                            "reliable checkpoints under " + dir);
                }
            } finally {
                sc.sc().checkpointDir_$eq(before);
            }
        }
    }

    /**
     * The shared SparkContext may have a checkpoint directory from another test class; local checkpointing is
     * what a context without one uses, so hide it for the run (a test-only reach into Spark's field).
     */
    static void withoutCheckpointDirectory(Runnable body) {
        var sc = io.sluice.testkit.SharedSpark.context().sc();
        Option<String> before = sc.checkpointDir();
        sc.checkpointDir_$eq(Option.empty());
        try {
            body.run();
        } finally {
            sc.checkpointDir_$eq(before);
        }
    }
}
