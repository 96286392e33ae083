package io.sluice.dstream;

import static io.sluice.testkit.Collected.multisets;
import static io.sluice.dstream.WindowOperationsTest.BIG_INPUT;
import static io.sluice.dstream.WindowOperationsTest.BIG_REDUCE_OUTPUT;
import static io.sluice.dstream.WindowOperationsTest.LARGER_SLIDE_INPUT;
import static io.sluice.dstream.WindowOperationsTest.LARGER_SLIDE_OUTPUT;
import static io.sluice.dstream.WindowOperationsTest.S1;
import static io.sluice.dstream.WindowOperationsTest.S2;
import static io.sluice.dstream.WindowOperationsTest.S3;
import static io.sluice.dstream.WindowOperationsTest.S4;
import static io.sluice.dstream.WindowOperationsTest.p;
import static io.sluice.dstream.WindowOperationsTest.runPairs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/** reduceByKeyAndWindow with an inverse function (and the filter), and window validation at start. */
class IncrementalWindowTest {
    static final List<List<Tuple2<String, Integer>>> BIG_REDUCE_INV_OUTPUT = List.of(
            List.of(p("a", 1)),
            List.of(p("a", 2), p("b", 1)),
            List.of(p("a", 2), p("b", 2), p("c", 1)),
            List.of(p("a", 2), p("b", 2), p("c", 1)),
            List.of(p("a", 2), p("b", 1), p("c", 0)),
            List.of(p("a", 1), p("b", 0), p("c", 0)),
            List.of(p("a", 1), p("b", 0), p("c", 0)),
            List.of(p("a", 2), p("b", 1), p("c", 0)),
            List.of(p("a", 2), p("b", 2), p("c", 1)),
            List.of(p("a", 2), p("b", 2), p("c", 1)),
            List.of(p("a", 2), p("b", 1), p("c", 0)),
            List.of(p("a", 1), p("b", 0), p("c", 0)));

    @Test
    void keyLeavingTheWindowStaysWithItsZero() {
        List<List<Tuple2<String, Integer>>> input = List.of(List.of(p("a", 1)), List.of(p("a", 1)), List.of(), List.of());
        Collected<Tuple2<String, Integer>> out = runPairs(input, 4,
                s -> s.reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b, S2, S1));
        assertEquals(List.of(List.of(p("a", 1)), List.of(p("a", 2)), List.of(p("a", 1)), List.of(p("a", 0))),
                out.batches());
    }

    @Test
    void largerSlideEmitsEverySecondBatch() {
        Collected<Tuple2<String, Integer>> out = runPairs(LARGER_SLIDE_INPUT, 8,
                s -> s.reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b, S4, S2));
        assertEquals(List.of(2000L, 4000L, 6000L, 8000L), WindowOperationsTest.times(out));
        assertEquals(LARGER_SLIDE_OUTPUT, out.batches());
    }

    @Test
    void bigTestKeepsZeroCountsWithoutAFilter() {
        Collected<Tuple2<String, Integer>> out = runPairs(BIG_INPUT, 12,
                s -> s.reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b, S2, S1));
        assertEquals(multisets(BIG_REDUCE_INV_OUTPUT), out.unordered());
    }

    @Test
    void filterFunctionDropsZeroCounts() {
        Collected<Tuple2<String, Integer>> byCount = runPairs(BIG_INPUT, 12, s -> s.reduceByKeyAndWindow(
                Integer::sum, (a, b) -> a - b, S2, S1, 3, kv -> kv._2() != 0));
        assertEquals(multisets(BIG_REDUCE_OUTPUT), byCount.unordered());
        Collected<Tuple2<String, Integer>> byPartitioner = runPairs(BIG_INPUT, 12, s -> s.reduceByKeyAndWindow(
                Integer::sum, (a, b) -> a - b, S2, S1, new HashPartitioner(2), kv -> kv._2() != 0));
        assertEquals(multisets(BIG_REDUCE_OUTPUT), byPartitioner.unordered());
    }

    /** Pseudo-random keys and values with runs of empty batches: incremental (filtered) equals recomputed. */
    static List<List<Tuple2<String, Integer>>> noisyInput(int batches) {
        List<List<Tuple2<String, Integer>>> input = new ArrayList<>();
        long x = 42;
        for (int b = 0; b < batches; b++) {
            List<Tuple2<String, Integer>> batch = new ArrayList<>();
            boolean empty = b % 12 >= 4 && b % 12 <= 7;
            for (int i = 0; !empty && i < 1 + b % 5; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
                batch.add(p("k" + Math.floorMod(x >>> 33, 6), 1 + (int) Math.floorMod(x >>> 40, 9)));
            }
            input.add(batch);
        }
        return input;
    }

    @Test
    void windowsOfThreeByOneAndFourByTwoEqualTheRecomputedWindow() {
        List<List<Tuple2<String, Integer>>> input = noisyInput(24);
        for (Duration[] ws : new Duration[][] {{S3, S1}, {S4, S2}}) {
            try (StreamTester t = new StreamTester()) {
                PairDStream<String, Integer> s = t.input(input).mapToPair(kv -> kv);
                Collected<Tuple2<String, Integer>> incremental = t.collect(s.reduceByKeyAndWindow(
                        Integer::sum, (a, b) -> a - b, ws[0], ws[1], 2, kv -> kv._2() != 0));
                Collected<Tuple2<String, Integer>> recomputed = t.collect(
                        s.reduceByKeyAndWindow(Integer::sum, ws[0], ws[1]));
                t.runBatches(26);
                int expectedBatches = 26 / (int) ws[1].toSeconds();
                assertEquals(expectedBatches, recomputed.batches().size());
                assertEquals(recomputed.unordered(), incremental.unordered(), "window " + ws[0] + " slide " + ws[1]);
                assertTrue(recomputed.batches().stream().anyMatch(List::isEmpty), "the input has empty windows");
            }
        }
    }

    @Test
    void aWindowShorterThanItsSlideStillHoldsOnlyItsOwnBatches() {
        try (StreamTester t = new StreamTester()) {
            DStream<Tuple2<String, Integer>> input = t.input(List.of(List.of(p("a", 1)), List.of(p("a", 2)),
                    List.of(p("a", 4)), List.of(p("a", 8)), List.of(p("a", 16)), List.of(p("a", 32))));
            t.collect(input); // every batch polls the queue
            Collected<Tuple2<String, Integer>> out = t.collect(input.mapToPair(kv -> kv)
                    .reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b, S2, S3));
            t.runBatches(6);
            assertEquals(List.of(List.of(p("a", 6)), List.of(p("a", 48))), out.batches());
        }
    }

    // ---- validation at start ------------------------------------------------------------------------------

    @Test
    void windowAndSlideMustBeMultiplesOfTheParentsSlide() {
        String message = startFailure(t -> t.input(List.<List<Integer>>of()).window(Duration.ofMillis(1500)));
        assertTrue(message.contains("its window duration 1500 ms is not a multiple of its parent stream's slide 1 s"),
                message);

        message = startFailure(t -> t.input(List.<List<Integer>>of()).window(S2, S2).window(S3, S2));
        assertTrue(message.contains("window duration 3 s is not a multiple of its parent stream's slide 2 s"), message);

        message = startFailure(t -> t.input(List.<List<Tuple2<String, Integer>>>of()).mapToPair(kv -> kv)
                .window(S2, S2).reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b, S4, S3));
        assertTrue(message.contains("reduceByKeyAndWindow at IncrementalWindowTest.java"), message);
        assertTrue(message.contains("its slide duration 3 s is not a multiple of its parent stream's slide 2 s"),
                message);
    }

    @Test
    void nonPositiveDurationsAreRejectedWhereTheyAreGiven() {
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> s = t.input(List.of());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.window(Duration.ZERO));
            assertTrue(e.getMessage().contains("window duration must be a positive"), e.getMessage());
        }
    }

    interface Pipeline {
        DStreamLike<?, ?> build(StreamTester t);
    }

    static String startFailure(Pipeline pipeline) {
        try (StreamTester t = new StreamTester()) {
            pipeline.build(t).foreachRDD(rdd -> { });
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.context().start());
            return e.getMessage();
        }
    }

}
