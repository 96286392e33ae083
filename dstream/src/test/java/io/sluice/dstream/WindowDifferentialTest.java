package io.sluice.dstream;

import static io.sluice.dstream.testing.Differential.Order.ORDERED;
import static io.sluice.dstream.testing.Differential.Order.UNORDERED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Collected;
import io.sluice.dstream.testing.Differential.Order;
import io.sluice.testkit.Records;
import io.sluice.testkit.SharedSpark;
import io.sluice.dstream.testing.SparkStreamingRun;
import io.sluice.testkit.StreamTester;
import io.sluice.rdd.Time;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.spark.streaming.Durations;
import org.apache.spark.streaming.api.java.JavaDStream;
import org.apache.spark.streaming.api.java.JavaDStreamLike;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Option;
import scala.Tuple2;

/**
 * Every window operation against Spark Streaming 4.2.0, batch for batch (see {@link
 * io.sluice.dstream.testing.Differential}): partial windows at the start, slides of 2, windows shorter than
 * their slide, runs of empty batches, and the incremental forms' zero values and filter.
 */
class WindowDifferentialTest {
    private static final Duration W2 = Duration.ofSeconds(2);
    private static final Duration W3 = Duration.ofSeconds(3);
    private static final Duration W4 = Duration.ofSeconds(4);
    private static final Duration S1 = Duration.ofSeconds(1);
    private static final Duration S2 = Duration.ofSeconds(2);
    private static final Duration S3 = Duration.ofSeconds(3);

    /** Words with repeats, and empty batches at the start, in the middle (three in a row) and at the end. */
    private static final List<List<String>> WORDS = List.of(
            List.of(),
            List.of("a", "b", "a"),
            List.of("b", "c"),
            List.of(),
            List.of(),
            List.of(),
            List.of("a", "d", "d", "d"),
            List.of("c"),
            List.of("a", "b", "c", "a"),
            List.of());

    private static Tuple2<String, Integer> pair(String w) {
        return new Tuple2<>(w, w.charAt(0) - 'a' + 1);
    }

    /**
     * As {@link io.sluice.dstream.testing.Differential#compare}, for windows that skip batches: both sides also
     * count every input batch (Spark Streaming reports no batch that has no job, and the queue source is then
     * read once per batch, as a time-indexed source would be), and the window's output is compared at the
     * times each side emitted it, so a wrong slide shows as different times.
     */
    private static <I, O> void compare(List<List<I>> input, Order order, Function<DStream<I>, ? extends DStreamLike<O, ?>> sluice,
            Function<JavaDStream<I>, JavaDStreamLike<O, ?, ?>> spark) {
        int batches = input.size() + 2;
        Map<Time, List<O>> expected;
        Map<Time, List<Long>> expectedCounts;
        try (SparkStreamingRun reference = new SparkStreamingRun(2)) {
            JavaDStream<I> in = reference.input(input);
            Collected<Long> counts = reference.collect(in.count());
            Collected<O> out = reference.collect(spark.apply(in));
            reference.runBatches(batches);
            expected = new TreeMap<>(out.byTime());
            expectedCounts = new TreeMap<>(counts.byTime());
        }
        Map<Time, List<O>> actual;
        Map<Time, List<Long>> actualCounts;
        try (StreamTester t = new StreamTester()) {
            DStream<I> in = t.input(input);
            Collected<Long> counts = t.collect(in.count());
            Collected<O> out = t.collect(sluice.apply(in));
            t.runBatches(batches);
            actual = new TreeMap<>(out.byTime());
            actualCounts = new TreeMap<>(counts.byTime());
        }
        assertEquals(batches, expectedCounts.size(), "Spark Streaming batches");
        assertEquals(expectedCounts, actualCounts, "input per batch");
        assertEquals(comparable(expected, order), comparable(actual, order),
                "Sluice's windows differ from Spark Streaming's");
    }

    private static <O> Map<Time, Object> comparable(Map<Time, List<O>> batches, Order order) {
        Map<Time, Object> result = new TreeMap<>();
        batches.forEach((time, records) -> {
            List<Object> normalized = Records.normalizeAll(records);
            result.put(time, order == Order.ORDERED ? normalized : Collected.multiset(normalized));
        });
        return result;
    }

    /** Spark Streaming's windows with an inverse need a checkpoint directory on the SparkContext; it is set
     * there (not on the streaming context, which would also checkpoint the graph) and restored afterwards. */
    private static void withSparkCheckpointDir(Path dir, Runnable body) {
        var sc = SharedSpark.context().sc();
        Option<String> before = sc.checkpointDir();
        sc.setCheckpointDir(dir.toString());
        try {
            body.run();
        } finally {
            sc.checkpointDir_$eq(before);
        }
    }

    @Test
    void windows() {
        for (Duration[] ws : new Duration[][] {{W3, S1}, {W4, S2}, {W2, S3}}) {
            long w = ws[0].toMillis();
            long sl = ws[1].toMillis();
            compare(WORDS, ORDERED, s -> s.window(ws[0], ws[1]),
                    s -> s.window(Durations.milliseconds(w), Durations.milliseconds(sl)));
        }
        compare(WORDS, ORDERED, s -> s.mapToPair(WindowDifferentialTest::pair).window(W2),
                s -> s.mapToPair(WindowDifferentialTest::pair).window(Durations.seconds(2)));
    }

    @Test
    void reduceByKeyAndWindowRecomputed() {
        compare(WORDS, UNORDERED, s -> s.mapToPair(WindowDifferentialTest::pair).reduceByKeyAndWindow(Integer::sum, W3),
                s -> s.mapToPair(WindowDifferentialTest::pair).reduceByKeyAndWindow(Integer::sum, Durations.seconds(3)));
        compare(WORDS, UNORDERED,
                s -> s.mapToPair(WindowDifferentialTest::pair).reduceByKeyAndWindow(Integer::sum, W4, S2, 3),
                s -> s.mapToPair(WindowDifferentialTest::pair).reduceByKeyAndWindow(Integer::sum,
                        Durations.seconds(4), Durations.seconds(2), 3));
    }

    @Test
    void reduceByKeyAndWindowIncremental(@TempDir Path dir) {
        withSparkCheckpointDir(dir, () -> {
            compare(WORDS, UNORDERED,
                    s -> s.mapToPair(WindowDifferentialTest::pair).reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b,
                            W3, S1),
                    s -> s.mapToPair(WindowDifferentialTest::pair).reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b,
                            Durations.seconds(3), Durations.seconds(1)));
            compare(WORDS, UNORDERED,
                    s -> s.mapToPair(WindowDifferentialTest::pair).reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b,
                            W4, S2, 2, kv -> kv._2() != 0),
                    s -> s.mapToPair(WindowDifferentialTest::pair).reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b,
                            Durations.seconds(4), Durations.seconds(2), 2, kv -> kv._2() != 0));
        });
    }

    @Test
    void groupByKeyAndWindow() {
        compare(WORDS, UNORDERED,
                s -> s.mapToPair(WindowDifferentialTest::pair).groupByKeyAndWindow(W4, S2, 3).mapValues(WindowDifferentialTest::sorted),
                s -> s.mapToPair(WindowDifferentialTest::pair).groupByKeyAndWindow(Durations.seconds(4), Durations.seconds(2), 3)
                        .mapValues(WindowDifferentialTest::sorted));
    }

    @Test
    void singleValueWindows(@TempDir Path dir) {
        withSparkCheckpointDir(dir, () -> {
            compare(WORDS, ORDERED, s -> s.countByWindow(W3, S1),
                    s -> s.countByWindow(Durations.seconds(3), Durations.seconds(1)));
            compare(WORDS, ORDERED, s -> s.map(String::length).reduceByWindow(Integer::sum, W2, S1),
                    s -> s.map(String::length).reduceByWindow(Integer::sum, Durations.seconds(2), Durations.seconds(1)));
            compare(WORDS, ORDERED, s -> s.map(String::length).reduceByWindow(Integer::sum, (a, b) -> a - b, W4, S2),
                    s -> s.map(String::length).reduceByWindow(Integer::sum, (a, b) -> a - b,
                            Durations.seconds(4), Durations.seconds(2)));
            compare(WORDS, UNORDERED, s -> s.countByValueAndWindow(W3, S1),
                    s -> s.countByValueAndWindow(Durations.seconds(3), Durations.seconds(1)));
            compare(WORDS, UNORDERED, s -> s.countByValueAndWindow(W4, S2, 3),
                    s -> s.countByValueAndWindow(Durations.seconds(4), Durations.seconds(2), 3));
        });
    }

    private static List<Integer> sorted(Iterable<Integer> values) {
        List<Integer> list = new ArrayList<>();
        values.forEach(list::add);
        list.sort(null);
        return list;
    }
}
