package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * textFileStream and fileStream on a temp directory. The batch clock is a manual clock starting at 0, so the
 * tests set each file's modification time explicitly (in batch-clock milliseconds) before moving it in: the
 * selection rules (new, stable, not yet taken) are then exact.
 */
class FileSourceTest {
    @TempDir
    Path dir;
    @TempDir
    Path staging;

    /** Writes {@code lines} to a staging file, sets its modification time, and moves it into the directory. */
    private Path moveIn(String name, long mtime, String... lines) throws IOException {
        return moveIn(dir, name, mtime, lines);
    }

    private Path moveIn(Path into, String name, long mtime, String... lines) throws IOException {
        Path staged = staging.resolve(name);
        Files.write(staged, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        Files.setLastModifiedTime(staged, FileTime.fromMillis(mtime));
        return Files.move(staged, into.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    @Test
    void eachFileMovedInIsReadOnceAndFilesInProgressOrOldAreIgnored() throws Exception {
        Path old = Files.writeString(dir.resolve("old.txt"), "before the start\n");
        Files.setLastModifiedTime(old, FileTime.fromMillis(0));
        try (StreamTester t = new StreamTester()) {
            Collected<String> out = t.collect(t.context().textFileStream(dir.toString()));
            t.runBatches(0);
            moveIn("a.txt", 900, "a1", "a2");
            BatchInfo first = t.runBatches(1).get(0);
            moveIn("b.txt", 1500, "b1");
            moveIn("c.txt._COPYING_", 1500, "half-copied");
            moveIn(".hidden", 1500, "hidden");
            moveIn("_SUCCESS", 1500, "marker");
            List<BatchInfo> rest = t.runBatches(2);
            assertEquals(List.of(List.of("a1", "a2"), List.of("b1"), List.of()), out.batches());
            assertEquals(List.of(2L, 1L, 0L), List.of(first.numRecords(), rest.get(0).numRecords(),
                    rest.get(1).numRecords()));
        }
    }

    @Test
    void withMinFileAgeAFileWrittenInPlaceIsReadOnlyOnceItStopsChanging() throws Exception {
        try (StreamTester t = new StreamTester()) {
            t.context().conf(SourceSettings.MIN_FILE_AGE, "1s"); // the opt-in: not the default (Spark's contract)
            Collected<String> out = t.collect(t.context().textFileStream(dir.toString()));
            t.runBatches(0);
            Path growing = dir.resolve("growing.txt");
            Files.writeString(growing, "line 1\n");
            Files.setLastModifiedTime(growing, FileTime.fromMillis(1000));
            t.runBatches(1);                                    // new and recent: wait and see
            Files.writeString(growing, "line 2\n", StandardOpenOption.APPEND);
            Files.setLastModifiedTime(growing, FileTime.fromMillis(1800));
            t.runBatches(1);                                    // changed since the last listing: wait
            t.runBatches(1);                                    // unchanged for a batch: read it whole
            t.runBatches(1);
            assertEquals(List.of(List.of(), List.of(), List.of("line 1", "line 2"), List.of()), out.batches());
        }
    }

    @Test
    void badLinesAreSkippedAndCountedUnderTheSkipPolicy() throws Exception {
        try (StreamTester t = new StreamTester()) {
            t.context().conf(SourceSettings.BAD_RECORDS, "skip")
                    .conf(SourceSettings.MAX_LINE_LENGTH, "18");
            Collected<String> out = t.collect(t.context().textFileStream(dir.toString()));
            t.runBatches(0);
            Path staged = staging.resolve("mixed.txt");
            Files.write(staged, concat("good\n".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xC0, '\n'},
                    "far too long a line\nlast, no newline".getBytes(StandardCharsets.UTF_8)));
            Files.setLastModifiedTime(staged, FileTime.fromMillis(500));
            Files.move(staged, dir.resolve("mixed.txt"));
            BatchInfo batch = t.runBatches(1).get(0);
            assertEquals(List.of(List.of("good", "last, no newline")), out.batches());
            assertEquals(2, batch.numRecords());
            assertEquals(2, batch.skippedRecords());
        }
    }

    @Test
    void underTheFailPolicyABadLineFailsTheBatchNamingSourceBatchFileAndLine() throws Exception {
        try (StreamTester t = new StreamTester()) {
            t.context().conf(SourceSettings.BAD_RECORDS, "fail");
            t.collect(t.context().textFileStream(dir.toString()));
            t.runBatches(0);
            Path staged = staging.resolve("bad.txt");
            Files.write(staged, concat("fine\n".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xFE, '\n'}));
            Files.setLastModifiedTime(staged, FileTime.fromMillis(500));
            Path bad = Files.move(staged, dir.resolve("bad.txt"));
            BatchInfo batch = t.runBatches(1).get(0);
            assertTrue(batch.failed());
            // the lines are read in the batch's tasks: a task failure, a SparkException as in Spark Streaming
            String m = assertThrows(org.apache.spark.SparkException.class,
                    () -> t.context().awaitTerminationOrTimeout(java.time.Duration.ZERO)).getMessage();
            assertTrue(m.contains("textFileStream at FileSourceTest.java") && m.contains("batch " + batch.batchTime())
                    && m.contains(bad.getFileName().toString()) && m.contains("line 2 is not valid UTF-8"), m);
        }
    }

    @Test
    void aFileThatDisappearsBeforeItIsReadFailsTheBatchOrIsCountedAsSkipped() throws Exception {
        for (String policy : List.of("fail", "skip")) {
            Path sub = Files.createDirectory(dir.resolve(policy));
            try (StreamTester t = new StreamTester()) {
                t.context().conf(SourceSettings.BAD_RECORDS, policy);
                // The filter accepts a file and then deletes it: the file vanishes between listing and reading.
                PairDStream<LongWritable, Text> files = t.context().fileStream(sub.toString(), LongWritable.class,
                        Text.class, TextInputFormat.class, p -> {
                            if (p.getName().startsWith("vanishing")) {
                                Files.deleteIfExists(Path.of(p.toUri()));
                            }
                            return true;
                        }, true);
                Collected<String> out = t.collect(files.map(kv -> kv._2().toString()));
                t.runBatches(0);
                moveIn(sub, "vanishing-" + policy + ".txt", 500, "never read");
                moveIn(sub, "kept-" + policy + ".txt", 500, "kept");
                BatchInfo batch = t.runBatches(1).get(0);
                if (policy.equals("skip")) {
                    assertEquals(List.of(List.of("kept")), out.batches());
                    assertEquals(1, batch.skippedRecords());
                } else {
                    assertTrue(batch.failed());
                    String m = assertThrows(StreamingException.class,
                            () -> t.context().awaitTerminationOrTimeout(java.time.Duration.ZERO)).getMessage();
                    assertTrue(m.contains("fileStream at FileSourceTest.java") && m.contains("vanishing-fail.txt")
                            && m.contains("disappeared before it was read") && m.contains("batch 1000 ms"), m);
                }
            }
        }
    }

    @Test
    void fileStreamWithAFilterAndOldFilesIncluded() throws Exception {
        Path before = Files.writeString(dir.resolve("before.txt"), "already there\n");
        Files.setLastModifiedTime(before, FileTime.fromMillis(0));
        try (StreamTester t = new StreamTester()) {
            PairDStream<LongWritable, Text> files = t.context().fileStream(dir.toString(), LongWritable.class,
                    Text.class, TextInputFormat.class, p -> !p.getName().endsWith(".skip"), false);
            Collected<String> out = t.collect(files.map(kv -> kv._2().toString()));
            t.runBatches(0);
            moveIn("x.skip", 500, "filtered out");
            t.runBatches(1);
            moveIn("y.txt", 1500, "y", "and z");
            BatchInfo third = t.runBatches(1).get(0);
            assertEquals(List.of(List.of("already there"), List.of("y", "and z")), out.batches());
            assertEquals(2, third.numRecords(), "the input format's records are counted");
        }
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] all = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }
}
