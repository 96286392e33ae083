package io.sluice.dstream;

import io.sluice.dstream.testing.Failures;
import org.apache.spark.SparkException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.OutputOperationInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The listener events a user (the sample's progress line, the benchmark, a UI) observes. */
class ListenerEventsTest {

    /** Records every event in delivery order. */
    static final class Recorder implements StreamingListener {
        final List<Event> events = Collections.synchronizedList(new ArrayList<>());
        final BlockingQueue<BatchInfo> completed = new LinkedBlockingQueue<>();

        @Override
        public void onStreamingStarted(StreamingStarted e) {
            events.add(e);
        }

        @Override
        public void onBatchSubmitted(BatchSubmitted e) {
            events.add(e);
        }

        @Override
        public void onBatchStarted(BatchStarted e) {
            events.add(e);
        }

        @Override
        public void onBatchCompleted(BatchCompleted e) {
            events.add(e);
            completed.add(e.batchInfo());
        }

        @Override
        public void onOutputOperationStarted(OutputOperationStarted e) {
            events.add(e);
        }

        @Override
        public void onOutputOperationCompleted(OutputOperationCompleted e) {
            events.add(e);
        }

        BatchInfo awaitCompleted() throws InterruptedException {
            BatchInfo info = completed.poll(60, TimeUnit.SECONDS);
            if (info == null) {
                throw new AssertionError("no batch completed");
            }
            return info;
        }
    }

    private static String kind(StreamingListener.Event e) {
        String name = e.getClass().getSimpleName();
        if (e instanceof StreamingListener.OutputOperationStarted s) {
            return name + "#" + s.outputOperationInfo().id();
        }
        if (e instanceof StreamingListener.OutputOperationCompleted c) {
            return name + "#" + c.outputOperationInfo().id();
        }
        return name;
    }

    @Test
    void batchEventsCarryTimesDelaysAndInputRecords() throws Exception {
        Recorder recorder = new Recorder();
        BatchInfo first;
        BatchInfo second;
        try (StreamTester t = new StreamTester()) {
            t.context().addStreamingListener(recorder);
            DStream<String> words = t.context().generatorStream(100, 10, 3L, 2);
            words.foreachRDD(rdd -> {
                rdd.count();
                t.clock().advance(Duration.ofMillis(200)); // the output "takes" 200 ms of the manual clock
            });
            words.map(String::length).foreachRDD(rdd -> {
                rdd.count();
            });
            t.runBatches(0); // starts the context; batch 1000 fires when the clock reaches it
            t.clock().setTime(1100); // 100 ms late
            first = recorder.awaitCompleted();
            t.clock().setTime(2000);
            second = recorder.awaitCompleted();
        }
        assertEquals(1000, first.batchTime().milliseconds());
        assertEquals(100, first.numRecords(), "the generator reports its records");
        assertEquals(1100, first.submissionTime());
        assertEquals(1100, first.processingStartTime());
        assertEquals(1300, first.processingEndTime());
        assertEquals(100, first.schedulingDelay());
        assertEquals(200, first.processingDelay());
        assertEquals(300, first.totalDelay());
        assertEquals(2000, second.batchTime().milliseconds());
        assertEquals(List.of(0L, 200L, 200L), List.of(second.schedulingDelay(), second.processingDelay(),
                second.totalDelay()));

        List<OutputOperationInfo> ops = new ArrayList<>(first.outputOperationInfos().values());
        ops.sort((a, b) -> Integer.compare(a.id(), b.id()));
        assertEquals(2, ops.size());
        assertEquals(List.of("foreachRDD", "foreachRDD"), ops.stream().map(OutputOperationInfo::name).toList());
        assertTrue(ops.get(0).description().startsWith("foreachRDD at ListenerEventsTest.java:"), ops.get(0).description());
        assertEquals(List.of(1100L, 1300L, 1300L, 1300L), List.of(ops.get(0).startTime(), ops.get(0).endTime(),
                ops.get(1).startTime(), ops.get(1).endTime()));
        assertNull(ops.get(0).failureReason());

        List<String> perBatch = List.of("BatchSubmitted", "BatchStarted", "OutputOperationStarted#0",
                "OutputOperationCompleted#0", "OutputOperationStarted#1", "OutputOperationCompleted#1",
                "BatchCompleted");
        List<String> expected = new ArrayList<>(List.of("StreamingStarted"));
        expected.addAll(perBatch);
        expected.addAll(perBatch);
        assertEquals(expected, recorder.events.stream().map(ListenerEventsTest::kind).toList());
    }

    @Test
    void aFailingOutputOperationIsReportedAndLaterOutputsStillRun() throws Exception {
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> s = t.input(List.of(List.of(1, 2)));
            s.foreachRDD(rdd -> {
                throw new IllegalStateException("sink unavailable");
            });
            Collected<Integer> after = t.collect(s);
            List<String> reasons = t.runFailingBatch();
            assertEquals(1, reasons.size());
            assertFailureNames(reasons.get(0), "foreachRDD at ListenerEventsTest.java:", "sink unavailable");
            after.assertBatches(List.of(List.of(1, 2)));
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> t.context().awaitTerminationOrTimeout(Duration.ofSeconds(30)));
            assertEquals("sink unavailable", e.getMessage());
            assertFailureNames(Failures.naming(e), "foreachRDD at ListenerEventsTest.java:", "sink unavailable");
        }
    }

    @Test
    void aFailingTaskNamesTheOutputAndTheRootCause() throws Exception {
        try (StreamTester t = new StreamTester()) {
            t.collect(t.input(List.of(List.of(1, 2))).map(x -> {
                if (x == 2) {
                    throw new ArithmeticException("bad record 2");
                }
                return x;
            }));
            assertFailureNames(t.runFailingBatch().get(0), "foreachRDD at StreamTester.java:", "bad record 2");
            SparkException e = assertThrows(SparkException.class,
                    () -> t.context().awaitTerminationOrTimeout(Duration.ofSeconds(30)));
            assertEquals("bad record 2", Failures.inCauseChain(e, ArithmeticException.class).getMessage());
            assertFailureNames(e.getMessage(), "foreachRDD at StreamTester.java:", "bad record 2");
        }
    }

    @Test
    void aFailureWhileGeneratingTheBatchNamesTheOperator() throws Exception {
        try (StreamTester t = new StreamTester()) {
            t.collect(t.input(List.of(List.of(1))).transform(rdd -> {
                throw new IllegalArgumentException("no such table");
            }));
            assertFailureNames(t.runFailingBatch().get(0), "transform at ListenerEventsTest.java:", "no such table");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> t.context().awaitTerminationOrTimeout(Duration.ofSeconds(30)));
            assertEquals("no such table", e.getMessage());
            assertFailureNames(Failures.naming(e), "transform at ListenerEventsTest.java:", "no such table");
        }
    }

    @Test
    void batchesAfterAFailedOneStillRunAndForgetOldRdds() {
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> numbers = t.input(List.of(List.of(1), List.of(-1), List.of(2), List.of(3)));
            DStream<Integer> checked = numbers.transform(rdd -> {
                if (rdd.collect().contains(-1)) {
                    throw new IllegalArgumentException("negative input");
                }
                return rdd;
            });
            Collected<Integer> out = t.collect(checked);
            t.runBatches(1);
            t.runFailingBatch();
            t.runBatches(2);
            assertEquals(List.of(List.of(1), List.of(2), List.of(3)), out.batches());
            assertEquals(List.of(1000L, 3000L, 4000L), out.byTime().keySet().stream().map(x -> x.milliseconds())
                    .sorted().toList());
            assertEquals(1, checked.operator().rememberedCount());
            assertEquals(1, numbers.operator().rememberedCount());
        }
    }

    private static void assertFailureNames(String message, String operator, String cause) {
        for (String part : List.of(operator, "batch 1000 ms", cause)) {
            assertTrue(message != null && message.contains(part), () -> "expected '" + part + "' in: " + message);
        }
    }
}
