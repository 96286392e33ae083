package io.sluice.dstream;

import io.sluice.dstream.testing.Failures;
import org.apache.spark.SparkException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A user function that throws fails its batch; the context reports it to awaitTermination unless told to go on. */
class BatchFailurePolicyTest {
    private static final List<List<String>> INPUT = List.of(List.of("1", "2"), List.of("x"), List.of("3"));

    @Test
    void aThrowingFunctionFailsTheBatchNamingTheBatchAndAwaitTerminationThrows() {
        try (StreamTester t = new StreamTester()) {
            Collected<Integer> out = t.collect(t.input(INPUT).map(Integer::parseInt));
            List<BatchInfo> batches = t.runBatches(3);
            assertEquals(List.of(false, true, false), batches.stream().map(BatchInfo::failed).toList());
            SparkException e = assertThrows(SparkException.class,
                    () -> t.context().awaitTerminationOrTimeout(Duration.ZERO));
            Failures.inCauseChain(e, NumberFormatException.class);
            String m = e.getMessage();
            assertTrue(m.contains("batch " + batches.get(1).batchTime()) && m.contains("For input string: \"x\"")
                    && m.contains("foreachRDD at StreamTester.java"), m); // the failing job's output operation
            assertEquals(List.of(List.of(1, 2), List.of(3)), out.batches());
        }
    }

    @Test
    void withContinueOnBatchFailureTheFailureIsOnlyReportedToListeners() throws Exception {
        try (StreamTester t = new StreamTester()) {
            t.context().conf(Settings.CONTINUE_ON_BATCH_FAILURE, "true");
            Collected<Integer> out = t.collect(t.input(INPUT).map(Integer::parseInt));
            List<BatchInfo> batches = t.runBatches(3);
            assertTrue(batches.get(1).failed());
            assertFalse(t.context().awaitTerminationOrTimeout(Duration.ZERO), "still running, no error reported");
            assertEquals(List.of(List.of(1, 2), List.of(3)), out.batches());
        }
    }
}
