package io.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.DStream;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/** The kit as a user drives it: a small word count, batch by batch, on the manual clock. */
class StreamTesterTest {
    private static final List<List<String>> LINES = List.of(List.of("a b", "b"), List.of(), List.of("c a"));

    private static PairDStream<String, Integer> wordCount(DStream<String> lines) {
        return lines.flatMap(l -> Arrays.asList(l.split(" ")).iterator())
                .mapToPair(w -> new Tuple2<>(w, 1))
                .reduceByKey(Integer::sum);
    }

    @Test
    void runsOneBatchPerIntervalAndCollectsEachBatchsOutput() {
        try (StreamTester tester = new StreamTester()) {
            Collected<Tuple2<String, Integer>> counts = tester.collect(wordCount(tester.input(LINES)));
            assertEquals(List.of(), counts.batches(), "nothing runs before the clock moves");

            BatchInfo first = tester.runBatch();
            assertEquals(new Time(1000), first.batchTime());
            assertEquals(1000, tester.clock().millis(), "the clock moved exactly one interval");
            assertEquals(List.of(Map.of(new Tuple2<>("a", 1), 1, new Tuple2<>("b", 2), 1)), counts.unordered());

            List<BatchInfo> next = tester.runBatches(2);
            assertEquals(List.of(new Time(2000), new Time(3000)), next.stream().map(BatchInfo::batchTime).toList());
            assertEquals(new Time(4000), tester.nextBatchTime());
            counts.assertUnordered(List.of(
                    List.of(new Tuple2<>("a", 1), new Tuple2<>("b", 2)),
                    List.of(),
                    List.of(new Tuple2<>("c", 1), new Tuple2<>("a", 1))));
            assertEquals(List.of(new Time(1000), new Time(2000), new Time(3000)),
                    counts.byTime().keySet().stream().sorted().toList());
            assertEquals(3, tester.completedBatches().size());
        }
    }

    @Test
    void tablesRunAWholeScript() {
        StreamTester.expectBatches(List.of(List.of(1, 2), List.of(3)), s -> s.map(x -> x * 10),
                List.of(List.of(10, 20), List.of(30), List.of()));
        StreamTester.expectUnordered2(List.of(List.of(new Tuple2<>("k", 1))), List.of(List.of(new Tuple2<>("k", "x"))),
                (a, b) -> a.mapToPair(t -> t).join(b.mapToPair(t -> t)),
                List.of(List.of(new Tuple2<>("k", new Tuple2<>(1, "x")))));
    }

    @Test
    void aBatchOfTheWrongOutputFailsNamingTheBatch() {
        AssertionError error = assertThrows(AssertionError.class, () -> StreamTester.expectBatches(
                List.of(List.of(1), List.of(2)), s -> s.map(x -> x + 1), List.of(List.of(2), List.of(4))));
        assertTrue(error.getMessage().contains("first difference in batch 1 at 2000 ms: expected <[4]> but was <[3]>"),
                error.getMessage());
    }

    @Test
    void aFailingBatchIsReportedWithItsReason() {
        try (StreamTester tester = new StreamTester()) {
            tester.input(List.of(List.of(1))).foreachRDD(rdd -> {
                rdd.foreach(x -> {
                    throw new IllegalStateException("bad record " + x);
                });
            });
            List<String> reasons = tester.runFailingBatch();
            assertTrue(reasons.get(0).contains("bad record 1"), reasons.toString());
            AssertionError error = assertThrows(AssertionError.class, tester::runFailingBatch,
                    "the second batch is empty, so it succeeds");
            assertTrue(error.getMessage().contains("2000 ms should have failed"), error.getMessage());
        }
    }

    @Test
    void aLongerIntervalMovesTheClockByIt() {
        try (StreamTester tester = new StreamTester(Duration.ofSeconds(5))) {
            Collected<Long> counts = tester.collect(tester.input(List.of(List.of("x", "y"))).count());
            tester.runBatches(2);
            assertEquals(10_000, tester.clock().millis());
            counts.assertBatches(List.of(List.of(2L), List.of(0L)));
        }
    }

    @Test
    void aClosedTesterRunsNoMoreBatches() {
        StreamTester tester = new StreamTester();
        tester.collect(tester.input(List.of(List.of(1))));
        tester.runBatch();
        tester.close();
        IllegalStateException error = assertThrows(IllegalStateException.class, tester::runBatch);
        assertTrue(error.getMessage().contains("closed"), error.getMessage());
    }
}
