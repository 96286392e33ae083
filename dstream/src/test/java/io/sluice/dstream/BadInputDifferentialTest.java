package io.sluice.dstream;

import static io.sluice.dstream.SourcesTesting.awaitReceived;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.testing.LineServer;
import io.sluice.dstream.testing.SparkStreamingRun;
import io.sluice.rdd.Time;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice and Spark Streaming 4.2.0 read the same malformed bytes into the same strings: a socket text stream
 * (Spark's InputStreamReader) and a text file stream (Hadoop's Text), under Sluice's default policy (replace).
 */
class BadInputDifferentialTest {
    @TempDir
    Path sparkDir;
    @TempDir
    Path sluiceDir;
    @TempDir
    Path staging;

    /** Lines with malformed UTF-8 of several kinds, each terminated by a newline (no lone CR: see 0005). */
    private static final List<byte[]> LINES = List.of(
            utf8("plain ascii"),
            utf8("ünïcödé and 😀"),
            bytes('b', 'a', 'd', 0xC3, 0x28),                 // a lead byte without its continuation
            bytes(0x80, 'x', 0xBF),                           // lone continuation bytes
            bytes('t', 'r', 'u', 'n', 'c', 0xE2, 0x82),       // a 3-byte sequence cut by the newline
            bytes(0xC0, 0xAF, '/', 0xE0, 0x80, 0xAF),         // overlong encodings
            bytes(0xED, 0xA0, 0x80, 's', 'u', 'r'),           // an encoded surrogate
            bytes(0xF0, 0x9F, 0x98, 'x', 0xF8, 0x88, 0x80),   // a cut 4-byte sequence, a 5-byte lead
            bytes(0xFF, 0xFE, ' ', 'e', 'n', 'd'));

    @Test
    void aSocketTextStreamReadsMalformedBytesAsSparkStreamingDoes() throws Exception {
        byte[] input = joined(LINES);
        List<String> expected = new ArrayList<>();
        try (LineServer server = new LineServer(); SparkStreamingRun spark = new SparkStreamingRun(1)) {
            Collected<String> out = spark.collect(spark.context().socketTextStream("127.0.0.1", server.port()));
            spark.runBatches(0);
            server.accept().bytes(input);
            // Spark's receiver stores in real time: run batches until every line came through (no sleeping)
            for (int batch = 0; batch < 600 && all(out).size() < LINES.size(); batch++) {
                spark.runBatches(1);
            }
            expected.addAll(all(out));
        }
        List<String> actual;
        try (LineServer server = new LineServer(); StreamTester t = new StreamTester()) {
            DStream<String> lines = t.context().socketTextStream("127.0.0.1", server.port());
            Collected<String> out = t.collect(lines);
            t.runBatches(0);
            server.accept().bytes(input);
            awaitReceived(lines, LINES.size(), 0);
            t.runBatches(1);
            actual = all(out);
        }
        assertEquals(LINES.size(), expected.size(), "Spark Streaming's lines: " + expected);
        assertEquals(expected, actual);
    }

    @Test
    void aTextFileStreamReadsMalformedBytesAsSparkStreamingDoesBatchForBatch() throws Exception {
        List<byte[]> files = List.of(joined(LINES.subList(0, 4)), joined(LINES.subList(4, LINES.size())),
                utf8("last line without a newline"));
        Map<Time, List<String>> expected;
        try (SparkStreamingRun spark = new SparkStreamingRun(1)) {
            Collected<String> out = spark.collect(spark.context().textFileStream(sparkDir.toString()));
            spark.runBatches(0);
            for (int i = 0; i < files.size(); i++) {
                moveIn(sparkDir, i, files.get(i));
                spark.runBatches(1);
            }
            spark.runBatches(1);
            expected = new TreeMap<>(out.byTime());
        }
        Map<Time, List<String>> actual;
        try (StreamTester t = new StreamTester()) {
            Collected<String> out = t.collect(t.context().textFileStream(sluiceDir.toString()));
            t.runBatches(0);
            for (int i = 0; i < files.size(); i++) {
                moveIn(sluiceDir, i, files.get(i));
                t.runBatches(1);
            }
            t.runBatches(1);
            actual = new TreeMap<>(out.byTime());
        }
        assertEquals(files.size() + 1, expected.size(), "Spark Streaming's batches: " + expected);
        assertEquals(expected, actual);
    }

    /** File i is complete half a batch before batch i + 1, as both streams' selection rules want it. */
    private void moveIn(Path into, int i, byte[] content) throws java.io.IOException {
        Path staged = staging.resolve("batch-" + i + "-" + into.getFileName() + ".txt");
        Files.write(staged, content);
        Files.setLastModifiedTime(staged, FileTime.fromMillis(StreamTester.INTERVAL.toMillis() * i + 500));
        Files.move(staged, into.resolve("batch-" + i + ".txt"));
    }

    private static List<String> all(Collected<String> out) {
        List<String> all = new ArrayList<>();
        out.batches().forEach(all::addAll);
        return all;
    }

    private static byte[] joined(List<byte[]> lines) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] line : lines) {
            all.writeBytes(line);
            all.write('\n');
        }
        return all.toByteArray();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }
}
