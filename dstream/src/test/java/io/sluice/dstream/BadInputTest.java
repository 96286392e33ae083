package io.sluice.dstream;

import static io.sluice.dstream.SourcesTesting.awaitReceived;
import static io.sluice.dstream.SourcesTesting.receiverOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.internal.BadInputWarning;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.testing.LineServer;
import io.sluice.dstream.testing.LogCapture;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sluice.input.badRecords on the socket and file text sources: replace (the default) keeps a malformed line with
 * U+FFFD and an over-long one cut at the maximum, counting them as repaired, with one warning per batch naming
 * the source, the batch and the first bad line; skip drops and counts; fail fails the batch, naming source and
 * batch. The job keeps running under the first two.
 */
class BadInputTest {
    @TempDir
    Path dir;
    @TempDir
    Path staging;

    private static final byte[] INVALID = {'b', 'a', 'd', (byte) 0xC3, (byte) 0x28, '\n'}; // C3 needs a continuation

    private static StreamTester tester(String policy) {
        StreamTester t = new StreamTester();
        t.context().conf(SourceSettings.RESTART_DELAY, "10ms").conf(SourceSettings.MAX_LINE_LENGTH, "16");
        if (policy != null) {
            t.context().conf(SourceSettings.BAD_RECORDS, policy);
        }
        return t;
    }

    @Test
    void byDefaultASocketKeepsBadLinesRepairedCountsThemAndWarnsOncePerBatch() throws Exception {
        try (LineServer server = new LineServer(); StreamTester t = tester(null);
                LogCapture log = new LogCapture(BadInputWarning.class)) {
            DStream<String> lines = t.context().socketTextStream("127.0.0.1", server.port());
            Collected<String> out = t.collect(lines);
            t.collect(lines.count()); // a second output over the same batch: still one warning
            t.runBatches(0);
            LineServer.Connection c = server.accept();
            c.lines("good 1").bytes(INVALID).lines("x".repeat(40), "ünïcödé ok");
            c.bytes("cut off mid-li".getBytes(StandardCharsets.UTF_8)).close(); // the server closes mid-line
            awaitReceived(lines, 5, 0);
            BatchInfo batch = t.runBatches(1).get(0);
            c = server.accept(); // the receiver reconnected: the job goes on
            c.lines("next");
            awaitReceived(lines, 6, 0);
            BatchInfo next = t.runBatches(1).get(0);

            assertEquals(List.of(List.of("good 1", "bad\uFFFD(", "x".repeat(16), "ünïcödé ok", "cut off mid-li"),
                    List.of("next")), out.batches());
            assertEquals(5, batch.numRecords());
            assertEquals(3, batch.repairedRecords());
            assertEquals(0, batch.skippedRecords());
            String source = "socketTextStream at BadInputTest.java";
            assertEquals(1, batch.inputReports().size(), batch.inputReports().toString());
            String key = batch.inputReports().keySet().iterator().next();
            assertTrue(key.startsWith(source), key);
            assertEquals(new BatchReport(5, 0, 3), batch.inputReports().get(key));
            assertEquals(0, next.repairedRecords());
            assertFalse(t.context().awaitTerminationOrTimeout(Duration.ZERO));

            List<String> warnings = log.warningsWith("batch " + batch.batchTime());
            assertEquals(1, warnings.size(), log.warnings().toString());
            String w = warnings.get(0);
            assertTrue(w.contains(source) && w.contains("3 records repaired, 0 skipped")
                    && w.contains("127.0.0.1:" + server.port() + " line 2 is not valid UTF-8 at byte 4"), w);
            assertTrue(log.warningsWith("batch " + next.batchTime()).isEmpty(), log.warnings().toString());
        }
    }

    @Test
    void aSocketUnderSkipDropsAndCountsUnderFailFailsTheBatchNamingSourceAndBatch() throws Exception {
        for (String policy : List.of("skip", "fail")) {
            try (LineServer server = new LineServer(); StreamTester t = tester(policy)) {
                DStream<String> lines = t.context().socketTextStream("127.0.0.1", server.port());
                Collected<String> out = t.collect(lines);
                t.runBatches(0);
                LineServer.Connection c = server.accept();
                c.lines("good", "y".repeat(17)).bytes(INVALID).lines("fine");
                if (policy.equals("skip")) {
                    awaitReceived(lines, 2, 2);
                    BatchInfo batch = t.runBatches(1).get(0);
                    assertEquals(List.of(List.of("good", "fine")), out.batches());
                    assertEquals(2, batch.skippedRecords());
                    assertEquals(0, batch.repairedRecords());
                } else {
                    assertTrue(receiverOf(lines).awaitFinished(SourcesTesting.WAIT), "the receiver stops");
                    BatchInfo batch = t.runBatches(1).get(0);
                    assertTrue(batch.failed());
                    String m = assertThrows(StreamingException.class,
                            () -> t.context().awaitTerminationOrTimeout(Duration.ZERO)).getMessage();
                    assertTrue(m.contains("socketTextStream at BadInputTest.java") && m.contains("batch "
                            + batch.batchTime()) && m.contains("line 2 is longer than the maximum of 16 bytes"), m);
                }
            }
        }
    }

    @Test
    void byDefaultAFileKeepsBadLinesRepairedCountsThemAndWarnsOncePerBatch() throws Exception {
        try (StreamTester t = tester(null); LogCapture log = new LogCapture(BadInputWarning.class)) {
            DStream<String> files = t.context().textFileStream(dir.toString());
            Collected<String> out = t.collect(files);
            t.collect(files.count()); // a second output over the same batch: still one warning
            t.runBatches(0);
            moveIn("mixed.txt", 500, concat("good\n".getBytes(StandardCharsets.UTF_8), INVALID,
                    ("z".repeat(15) + "é far too long\nlast").getBytes(StandardCharsets.UTF_8)));
            BatchInfo batch = t.runBatches(1).get(0);
            moveIn("fine.txt", 1500, "fine\n".getBytes(StandardCharsets.UTF_8));
            BatchInfo next = t.runBatches(1).get(0);

            // the long line is cut at 16 bytes, before the second byte of é: 15 z's and nothing of é
            assertEquals(List.of(List.of("good", "bad\uFFFD(", "z".repeat(15), "last"), List.of("fine")),
                    out.batches());
            assertEquals(4, batch.numRecords());
            assertEquals(2, batch.repairedRecords());
            assertEquals(0, batch.skippedRecords());
            assertEquals(0, next.repairedRecords());
            assertFalse(t.context().awaitTerminationOrTimeout(Duration.ZERO));
            List<String> warnings = log.warningsWith("batch " + batch.batchTime());
            assertEquals(1, warnings.size(), log.warnings().toString());
            String w = warnings.get(0);
            assertTrue(w.contains("textFileStream at BadInputTest.java") && w.contains("2 records repaired")
                    && w.contains("mixed.txt line 2 is not valid UTF-8 at byte 4"), w);
            assertTrue(log.warningsWith("batch " + next.batchTime()).isEmpty(), log.warnings().toString());
        }
    }

    @Test
    void aFileUnderSkipDropsAndCountsUnderFailFailsTheBatch() throws Exception {
        for (String policy : List.of("skip", "fail")) {
            Path sub = Files.createDirectory(dir.resolve(policy));
            try (StreamTester t = tester(policy)) {
                Collected<String> out = t.collect(t.context().textFileStream(sub.toString()));
                t.runBatches(0);
                moveIn(sub, "long-" + policy + ".txt", 500, ("ok\n" + "w".repeat(17) + "\nalso ok\n")
                        .getBytes(StandardCharsets.UTF_8));
                BatchInfo batch = t.runBatches(1).get(0);
                if (policy.equals("skip")) {
                    assertEquals(List.of(List.of("ok", "also ok")), out.batches());
                    assertEquals(1, batch.skippedRecords());
                } else {
                    assertTrue(batch.failed());
                    String m = assertThrows(org.apache.spark.SparkException.class, // failed in a task
                            () -> t.context().awaitTerminationOrTimeout(Duration.ZERO)).getMessage();
                    assertTrue(m.contains("textFileStream at BadInputTest.java") && m.contains("batch "
                            + batch.batchTime()) && m.contains("line 2 is longer than the maximum of 16 bytes"), m);
                }
            }
        }
    }

    private Path moveIn(String name, long mtime, byte[] content) throws java.io.IOException {
        return moveIn(dir, name, mtime, content);
    }

    private Path moveIn(Path into, String name, long mtime, byte[] content) throws java.io.IOException {
        Path staged = staging.resolve(name);
        Files.write(staged, content);
        Files.setLastModifiedTime(staged, FileTime.fromMillis(mtime));
        return Files.move(staged, into.resolve(name));
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            all.writeBytes(p);
        }
        return all.toByteArray();
    }
}
