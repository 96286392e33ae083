package io.sluice.dstream;

import static io.sluice.dstream.SourcesTesting.awaitReceived;
import static io.sluice.dstream.SourcesTesting.receiverOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.testkit.Collected;
import io.sluice.dstream.testing.LineServer;
import io.sluice.dstream.testing.ReceiverEvents;
import io.sluice.testkit.StreamTester;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;

/** socketTextStream and socketStream against a real server on 127.0.0.1: batches, reconnects, bad input. */
class SocketSourceTest {

    private static StreamTester tester() {
        StreamTester t = new StreamTester();
        t.context().conf(SourceSettings.RESTART_DELAY, "10ms").conf(SourceSettings.MAX_RESTART_DELAY, "200ms");
        return t;
    }

    @Test
    void linesReceivedBetweenBatchesFormTheNextBatch() throws Exception {
        try (LineServer server = new LineServer(); StreamTester t = tester()) {
            DStream<String> lines = t.context().socketTextStream("127.0.0.1", server.port());
            Collected<String> out = t.collect(lines);
            t.runBatches(0);
            LineServer.Connection c = server.accept();
            c.lines("a", "b", "c");
            awaitReceived(lines, 3, 0);
            BatchInfo first = t.runBatches(1).get(0);
            c.lines("d", "e");
            awaitReceived(lines, 5, 0);
            List<BatchInfo> rest = t.runBatches(2);
            assertEquals(List.of(List.of("a", "b", "c"), List.of("d", "e"), List.of()), out.batches());
            assertEquals(List.of(3L, 2L, 0L), List.of(first.numRecords(), rest.get(0).numRecords(),
                    rest.get(1).numRecords()));
        }
    }

    @Test
    void reconnectsWithBackoffWhenTheServerClosesAndReportsEachReconnect() throws Exception {
        try (LineServer server = new LineServer(); StreamTester t = tester()) {
            ReceiverEvents events = new ReceiverEvents();
            t.context().addStreamingListener(events);
            DStream<String> lines = t.context().socketTextStream("127.0.0.1", server.port());
            Collected<String> out = t.collect(lines);
            t.runBatches(0);
            events.await("started");
            server.accept().lines("a", "b").close();
            awaitReceived(lines, 2, 0);
            server.accept().lines("c").close(); // the receiver came back after the first close
            awaitReceived(lines, 3, 0);
            server.accept().lines("d");
            awaitReceived(lines, 4, 0);
            t.runBatches(1);
            assertEquals(List.of(List.of("a", "b", "c", "d")), out.batches());
            assertTrue(receiverOf(lines).reconnects() >= 2, "reconnects counted: " + receiverOf(lines).reconnects());
            StreamingListener.ReceiverEvent reconnected = events.await("reconnected");
            assertTrue(reconnected.source().contains("socketTextStream at SocketSourceTest.java")
                    && reconnected.source().contains("127.0.0.1:" + server.port()), reconnected.source());
            assertTrue(events.all().stream().anyMatch(e -> e.kind().equals("error")
                    && e.message().contains("closed the connection")), events.all().toString());
        }
    }

    @Test
    void aServerThatIsNotThereIsReportedAndRetriedWhileBatchesGoOn() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // closed again: nothing listens there now
        }
        try (StreamTester t = tester()) {
            ReceiverEvents events = new ReceiverEvents();
            t.context().addStreamingListener(events);
            DStream<String> lines = t.context().socketTextStream("127.0.0.1", port);
            Collected<String> out = t.collect(lines);
            t.runBatches(0);
            StreamingListener.ReceiverEvent error = events.await("error");
            assertTrue(error.message().contains("cannot connect to 127.0.0.1:" + port), error.message());
            events.await("reconnected");
            t.runBatches(2);
            assertEquals(List.of(List.of(), List.of()), out.batches());
            assertTrue(t.context().awaitTerminationOrTimeout(java.time.Duration.ZERO) == false);
        }
    }

    @Test
    void badLinesAreSkippedAndCountedPerBatchUnderTheSkipPolicy() throws Exception {
        try (LineServer server = new LineServer(); StreamTester t = tester()) {
            t.context().conf(SourceSettings.BAD_RECORDS, "skip").conf(SourceSettings.MAX_LINE_LENGTH, "16");
            DStream<String> lines = t.context().socketTextStream("127.0.0.1", server.port());
            Collected<String> out = t.collect(lines);
            t.runBatches(0);
            LineServer.Connection c = server.accept();
            c.lines("good 1");
            c.bytes(new byte[] {'b', 'a', 'd', (byte) 0xC3, (byte) 0x28, '\n'}); // invalid UTF-8
            c.lines("x".repeat(40), "ünïcödé ok");                               // too long, then fine
            c.bytes("cut off mid-li".getBytes(StandardCharsets.UTF_8));
            c.close();                                                           // closes mid-line
            awaitReceived(lines, 2, 3);
            BatchInfo batch = t.runBatches(1).get(0);
            assertEquals(List.of(List.of("good 1", "ünïcödé ok")), out.batches());
            assertEquals(2, batch.numRecords());
            assertEquals(3, batch.skippedRecords());
        }
    }

    @Test
    void underTheFailPolicyABadLineFailsTheBatchNamingSourceBatchAndLine() throws Exception {
        try (LineServer server = new LineServer(); StreamTester t = tester()) {
            t.context().conf(SourceSettings.BAD_RECORDS, "fail");
            DStream<String> lines = t.context().socketTextStream("127.0.0.1", server.port());
            t.collect(lines);
            t.runBatches(0);
            server.accept().lines("fine").bytes(new byte[] {(byte) 0xFF, '\n'});
            if (!receiverOf(lines).awaitFinished(SourcesTesting.WAIT)) {
                throw new AssertionError("the receiver did not stop on bad input");
            }
            BatchInfo batch = t.runBatches(1).get(0);
            assertTrue(batch.failed());
            StreamingException e = assertThrows(StreamingException.class,
                    () -> t.context().awaitTerminationOrTimeout(java.time.Duration.ZERO));
            String m = e.getMessage();
            assertTrue(m.contains("socketTextStream at SocketSourceTest.java") && m.contains("127.0.0.1:" + server.port())
                    && m.contains("batch " + batch.batchTime()) && m.contains("line 2 is not valid UTF-8")
                    && m.contains(SourceSettings.BAD_RECORDS), m);
        }
    }

    @Test
    void socketStreamCountsRecordsItsConverterRejects() throws Exception {
        try (LineServer server = new LineServer(); StreamTester t = tester()) {
            t.context().conf(SourceSettings.BAD_RECORDS, "skip");
            DStream<Integer> numbers = t.context().socketStream("127.0.0.1", server.port(),
                    SocketSourceTest::integers, StorageLevel.MEMORY_ONLY());
            Collected<Integer> out = t.collect(numbers);
            t.runBatches(0);
            server.accept().lines("1", "two", "3").close();
            awaitReceived(numbers, 2, 1);
            BatchInfo batch = t.runBatches(1).get(0);
            assertEquals(List.of(List.of(1, 3)), out.batches());
            assertEquals(1, batch.skippedRecords());
        }
    }

    /** A converter whose iterator's next() throws on a line that is not a number (having moved past it). */
    static Iterable<Integer> integers(InputStream in) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        return () -> new java.util.Iterator<>() {
            private String line;

            @Override
            public boolean hasNext() {
                try {
                    if (line == null) {
                        line = reader.readLine();
                    }
                    return line != null;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }

            @Override
            public Integer next() {
                hasNext();
                String l = line;
                line = null;
                return Integer.parseInt(l);
            }
        };
    }
}
