package io.sluice.dstream;

import io.sluice.dstream.testing.Failures;
import org.apache.spark.SparkException;
import static io.sluice.dstream.SourcesTesting.awaitReceived;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.testing.LineServer;
import io.sluice.dstream.testing.ReceiverEvents;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;

/**
 * What keeps a job running and what stops it, as in Spark Streaming: a receiver whose loop throws is restarted
 * with backoff and reported to listeners while batches go on; a user function that throws fails its batch, and
 * that failure reaches awaitTermination.
 */
class KeepsRunningTest {
    private static StreamTester tester() {
        StreamTester t = new StreamTester();
        t.context().conf(SourceSettings.RESTART_DELAY, "10ms").conf(SourceSettings.MAX_RESTART_DELAY, "200ms");
        return t;
    }

    /** Reads lines; on its first connection the reading loop throws after the first line. */
    static final class BreaksOnce implements Function<InputStream, Iterable<String>> {
        private int connections;

        @Override
        public Iterable<String> call(InputStream in) {
            boolean breaks = connections++ == 0;
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            return () -> reader.lines().map(line -> {
                if (breaks) {
                    throw new IllegalStateException("the reading loop broke on '" + line + "'");
                }
                return line;
            }).iterator();
        }
    }

    @Test
    void aReceiverWhoseLoopThrowsIsRestartedAndReportedAndTheJobGoesOn() throws Exception {
        try (LineServer server = new LineServer(); StreamTester t = tester()) {
            ReceiverEvents events = new ReceiverEvents();
            t.context().addStreamingListener(events);
            DStream<String> lines = t.context().socketStream("127.0.0.1", server.port(), new BreaksOnce(),
                    StorageLevel.MEMORY_ONLY());
            Collected<String> out = t.collect(lines);
            t.runBatches(0);
            server.accept().lines("lost with the broken loop");
            StreamingListener.ReceiverEvent error = events.await("error");
            events.await("reconnected");
            BatchInfo during = t.runBatches(1).get(0);
            server.accept().lines("after the restart");
            awaitReceived(lines, 1, 0);
            BatchInfo after = t.runBatches(1).get(0);

            assertTrue(error.message().contains("the reading loop broke") && error.message().contains("restarting in"),
                    error.message());
            assertEquals(List.of(List.of(), List.of("after the restart")), out.batches());
            assertFalse(during.failed() || after.failed());
            assertFalse(t.context().awaitTerminationOrTimeout(Duration.ZERO), "the context keeps running");
        }
    }

    /** A Spark-style receiver whose start fails the first time. */
    static final class FailsToStartOnce extends Receiver<String> {
        private int starts;

        FailsToStartOnce() {
            super(StorageLevel.MEMORY_ONLY());
        }

        @Override
        public void onStart() {
            if (starts++ == 0) {
                throw new IllegalStateException("the device is not ready");
            }
            Thread t = new Thread(() -> store("ready now"));
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void onStop() {
        }
    }

    @Test
    void aReceiverWhoseStartThrowsIsRestartedAndReported() throws Exception {
        try (StreamTester t = tester()) {
            ReceiverEvents events = new ReceiverEvents();
            t.context().addStreamingListener(events);
            DStream<String> records = t.context().receiverStream(new FailsToStartOnce());
            Collected<String> out = t.collect(records);
            t.runBatches(0);
            StreamingListener.ReceiverEvent error = events.await("error");
            events.await("reconnected");
            awaitReceived(records, 1, 0);
            t.runBatches(1);
            assertTrue(error.message().contains("the device is not ready"), error.message());
            assertEquals(List.of(List.of("ready now")), out.batches());
            assertFalse(t.context().awaitTerminationOrTimeout(Duration.ZERO));
        }
    }

    @Test
    void aFailingUserFunctionFailsItsBatchAndReachesAwaitTermination() throws Exception {
        try (StreamTester t = new StreamTester()) {
            Collected<Integer> out = t.collect(t.input(List.of(List.of(1, 2), List.of(3, 0), List.of(6)))
                    .map(x -> 6 / x));
            List<BatchInfo> batches = t.runBatches(3);
            assertEquals(List.of(false, true, false), batches.stream().map(BatchInfo::failed).toList());
            SparkException e = assertThrows(SparkException.class,
                    () -> t.context().awaitTerminationOrTimeout(Duration.ZERO));
            assertTrue(e.getMessage().contains("map at KeepsRunningTest.java") && e.getMessage().contains("batch "
                    + batches.get(1).batchTime()), e.getMessage());
            Failures.inCauseChain(e, ArithmeticException.class);
            assertEquals(List.of(6, 3), out.batches().get(0));
            assertEquals(List.of(1), out.batches().get(out.batches().size() - 1));
        }
    }
}
