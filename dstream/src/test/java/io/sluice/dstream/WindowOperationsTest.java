package io.sluice.dstream;

import static io.sluice.testkit.Collected.multisets;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * Window operations batch by batch (1 s batches), with the tables of Spark Streaming's WindowOperationsSuite
 * where it has one: what the first (partial) windows hold, at which batches a slide of 2 emits, empty batches.
 */
class WindowOperationsTest {
    static final Duration S1 = Duration.ofSeconds(1);
    static final Duration S2 = Duration.ofSeconds(2);
    static final Duration S3 = Duration.ofSeconds(3);
    static final Duration S4 = Duration.ofSeconds(4);

    static final List<List<Integer>> SIX = List.of(List.of(0), List.of(1), List.of(2), List.of(3), List.of(4), List.of(5));

    static final List<List<Tuple2<String, Integer>>> LARGER_SLIDE_INPUT = List.of(
            List.of(p("a", 1)), List.of(p("a", 2)), List.of(p("a", 3)), List.of(p("a", 4)),
            List.of(p("a", 5)), List.of(p("a", 6)), List.of(), List.of());
    static final List<List<Tuple2<String, Integer>>> LARGER_SLIDE_OUTPUT = List.of(
            List.of(p("a", 3)), List.of(p("a", 10)), List.of(p("a", 18)), List.of(p("a", 11)));

    static final List<List<Tuple2<String, Integer>>> BIG_INPUT = List.of(
            List.of(p("a", 1)),
            List.of(p("a", 1), p("b", 1)),
            List.of(p("a", 1), p("b", 1), p("c", 1)),
            List.of(p("a", 1), p("b", 1)),
            List.of(p("a", 1)),
            List.of(),
            List.of(p("a", 1)),
            List.of(p("a", 1), p("b", 1)),
            List.of(p("a", 1), p("b", 1), p("c", 1)),
            List.of(p("a", 1), p("b", 1)),
            List.of(p("a", 1)),
            List.of());
    static final List<List<Tuple2<String, Integer>>> BIG_REDUCE_OUTPUT = List.of(
            List.of(p("a", 1)),
            List.of(p("a", 2), p("b", 1)),
            List.of(p("a", 2), p("b", 2), p("c", 1)),
            List.of(p("a", 2), p("b", 2), p("c", 1)),
            List.of(p("a", 2), p("b", 1)),
            List.of(p("a", 1)),
            List.of(p("a", 1)),
            List.of(p("a", 2), p("b", 1)),
            List.of(p("a", 2), p("b", 2), p("c", 1)),
            List.of(p("a", 2), p("b", 2), p("c", 1)),
            List.of(p("a", 2), p("b", 1)),
            List.of(p("a", 1)));

    static Tuple2<String, Integer> p(String k, int v) {
        return new Tuple2<>(k, v);
    }

    /** Runs {@code op} over {@code input} for {@code batches} batches; each output batch as a multiset. */
    static <I, O> Collected<O> run(List<List<I>> input, int batches, Function<DStream<I>, ? extends DStreamLike<O, ?>> op) {
        try (StreamTester t = new StreamTester()) {
            Collected<O> out = t.collect(op.apply(t.input(input)));
            t.runBatches(batches);
            return out;
        }
    }

    static <K, V> Collected<Tuple2<K, V>> runPairs(List<List<Tuple2<K, V>>> input, int batches,
            Function<PairDStream<K, V>, ? extends DStreamLike<Tuple2<K, V>, ?>> op) {
        return run(input, batches, s -> op.apply(s.mapToPair(kv -> kv)));
    }

    // ---- window ---------------------------------------------------------------------------------------------

    @Test
    void windowOfTwoSlidingByOneStartsWithAPartialWindow() {
        Collected<Integer> out = run(SIX, 6, s -> s.window(S2));
        assertEquals(List.of(List.of(0), List.of(0, 1), List.of(1, 2), List.of(2, 3), List.of(3, 4), List.of(4, 5)),
                out.batches());
    }

    @Test
    void windowOfThreeSlidingByOne() {
        Collected<Integer> out = run(SIX, 7, s -> s.window(S3, S1));
        assertEquals(List.of(List.of(0), List.of(0, 1), List.of(0, 1, 2), List.of(1, 2, 3), List.of(2, 3, 4),
                List.of(3, 4, 5), List.of(4, 5)), out.batches());
    }

    @Test
    void windowOfFourSlidingByTwoEmitsEverySecondBatch() {
        Collected<Integer> out = run(SIX, 8, s -> s.window(S4, S2));
        assertEquals(List.of(2000L, 4000L, 6000L, 8000L), times(out));
        assertEquals(List.of(List.of(0, 1), List.of(0, 1, 2, 3), List.of(2, 3, 4, 5), List.of(4, 5)), out.batches());
    }

    @Test
    void tumblingAndNonOverlappingWindows() {
        assertEquals(List.of(List.of(0, 1), List.of(2, 3), List.of(4, 5)), run(SIX, 6, s -> s.window(S2, S2)).batches());
        // A window shorter than its slide skips batches; a second output on the input makes the queue source
        // hand out one RDD per batch (else nothing asks it for the skipped batches), as Spark's tests' input does.
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> input = t.input(SIX);
            Collected<Integer> all = t.collect(input);
            Collected<Integer> gaps = t.collect(input.window(S2, S3));
            t.runBatches(6);
            assertEquals(SIX, all.batches());
            assertEquals(List.of(3000L, 6000L), times(gaps));
            assertEquals(List.of(List.of(1, 2), List.of(4, 5)), gaps.batches());
        }
    }

    @Test
    void emptyBatchesInTheMiddleAndAnEmptyWindow() {
        List<List<Integer>> input = List.of(List.of(1), List.of(), List.of(), List.of(2), List.of());
        Collected<Integer> out = run(input, 7, s -> s.window(S3));
        assertEquals(List.of(List.of(1), List.of(1), List.of(1), List.of(2), List.of(2), List.of(2), List.of()),
                out.batches());
    }

    @Test
    void windowOfAWindow() {
        // 2-batch windows every 2 batches, then windows of two of those every 4 batches.
        Collected<Integer> out = run(SIX, 8, s -> s.window(S2, S2).window(S4, S4));
        assertEquals(List.of(List.of(0, 1, 2, 3), List.of(4, 5)), out.batches());
    }

    // ---- reduceByKeyAndWindow without inverse ---------------------------------------------------------------

    @Test
    void reduceByKeyAndWindowKeyLeavesTheWindow() {
        List<List<Tuple2<String, Integer>>> input = List.of(List.of(p("a", 1)), List.of(p("a", 1)), List.of(), List.of());
        Collected<Tuple2<String, Integer>> out = runPairs(input, 4, s -> s.reduceByKeyAndWindow(Integer::sum, S2));
        assertEquals(List.of(List.of(p("a", 1)), List.of(p("a", 2)), List.of(p("a", 1)), List.of()), out.batches());
    }

    @Test
    void reduceByKeyAndWindowLargerSlide() {
        Collected<Tuple2<String, Integer>> out = runPairs(LARGER_SLIDE_INPUT, 8,
                s -> s.reduceByKeyAndWindow(Integer::sum, S4, S2));
        assertEquals(LARGER_SLIDE_OUTPUT, out.batches());
    }

    @Test
    void reduceByKeyAndWindowBigTestAllOverloadsAgree() {
        assertEquals(multisets(BIG_REDUCE_OUTPUT),
                runPairs(BIG_INPUT, 12, s -> s.reduceByKeyAndWindow(Integer::sum, S2)).unordered());
        assertEquals(multisets(BIG_REDUCE_OUTPUT),
                runPairs(BIG_INPUT, 12, s -> s.reduceByKeyAndWindow(Integer::sum, S2, S1, 3)).unordered());
        assertEquals(multisets(BIG_REDUCE_OUTPUT), runPairs(BIG_INPUT, 12, s -> s.reduceByKeyAndWindow(
                Integer::sum, S2, S1, new org.apache.spark.HashPartitioner(1))).unordered());
    }

    // ---- groupByKeyAndWindow --------------------------------------------------------------------------------

    @Test
    void groupByKeyAndWindowBigTest() {
        Collected<Tuple2<String, Integer>> out = runPairs(BIG_INPUT, 12, s -> s.groupByKeyAndWindow(S2, S1)
                .mapToPair(kv -> {
                    int n = 0;
                    for (Integer v : kv._2()) {
                        n += v; // every value is 1: the group's size
                    }
                    return new Tuple2<>(kv._1(), n);
                }));
        assertEquals(multisets(BIG_REDUCE_OUTPUT), out.unordered());
    }

    @Test
    void groupByKeyAndWindowKeepsEveryValue() {
        List<List<Tuple2<String, Integer>>> input = List.of(List.of(p("a", 1), p("b", 2)), List.of(p("a", 3)),
                List.of(p("a", 5)));
        Collected<Tuple2<String, List<Integer>>> out = run(input, 3, s -> s.mapToPair(kv -> kv)
                .groupByKeyAndWindow(S2, S1, 2)
                .map(kv -> {
                    List<Integer> sorted = new ArrayList<>();
                    kv._2().forEach(sorted::add);
                    sorted.sort(null);
                    return new Tuple2<>(kv._1(), sorted);
                }));
        assertEquals(multisets(List.of(
                List.of(new Tuple2<>("a", List.of(1)), new Tuple2<>("b", List.of(2))),
                List.of(new Tuple2<>("a", List.of(1, 3)), new Tuple2<>("b", List.of(2))),
                List.of(new Tuple2<>("a", List.of(3, 5))))), out.unordered());
    }

    // ---- reduceByWindow, countByWindow, countByValueAndWindow ----------------------------------------------

    @Test
    void reduceByWindowWithoutInverseGivesEmptyRddsForEmptyWindows() {
        List<List<Integer>> input = List.of(List.of(1), List.of(2), List.of(), List.of(4));
        Collected<Integer> out = run(input, 6, s -> s.reduceByWindow(Integer::sum, S2, S1));
        assertEquals(List.of(List.of(1), List.of(3), List.of(2), List.of(4), List.of(4), List.of()), out.batches());
    }

    @Test
    void reduceByWindowWithInverseKeepsItsZero() {
        List<List<Integer>> input = List.of(List.of(), List.of(1), List.of(2), List.of(), List.of(4));
        Collected<Integer> out = run(input, 7, s -> s.reduceByWindow(Integer::sum, (a, b) -> a - b, S2, S1));
        assertEquals(List.of(List.of(), List.of(1), List.of(3), List.of(2), List.of(4), List.of(4), List.of(0)),
                out.batches());
    }

    @Test
    void countByWindowCountsZeroOnceItsElementsLeft() {
        List<List<Integer>> input = List.of(List.of(1), List.of(1), List.of(1, 2), List.of(0), List.of(), List.of());
        Collected<Long> out = run(input, 6, s -> s.countByWindow(S2, S1));
        assertEquals(List.of(List.of(1L), List.of(2L), List.of(3L), List.of(3L), List.of(1L), List.of(0L)),
                out.batches());
    }

    @Test
    void countByWindowIsEmptyBeforeTheFirstElement() {
        List<List<Integer>> input = List.of(List.of(), List.of(), List.of(7, 8, 9));
        Collected<Long> out = run(input, 5, s -> s.countByWindow(S2, S2));
        assertEquals(List.of(List.of(), List.of(3L)), out.batches().subList(0, 2));
    }

    @Test
    void countByValueAndWindowDropsValuesWhoseCountIsZero() {
        List<List<String>> input = List.of(List.of("a"), List.of("b", "b"), List.of("a", "b"), List.of(), List.of());
        Collected<Tuple2<String, Long>> out = run(input, 5, s -> s.countByValueAndWindow(S2, S1));
        assertEquals(multisets(List.of(
                List.of(new Tuple2<>("a", 1L)),
                List.of(new Tuple2<>("a", 1L), new Tuple2<>("b", 2L)),
                List.of(new Tuple2<>("a", 1L), new Tuple2<>("b", 3L)),
                List.of(new Tuple2<>("a", 1L), new Tuple2<>("b", 1L)),
                List.of())), out.unordered());
    }

    static <T> List<Long> times(Collected<T> out) {
        return out.byTime().keySet().stream().map(t -> t.milliseconds()).sorted().toList();
    }
}
