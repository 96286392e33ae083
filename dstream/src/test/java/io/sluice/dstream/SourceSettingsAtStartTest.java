package io.sluice.dstream;

import static io.sluice.dstream.SourcesTesting.awaitReceived;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in sources read their settings, and the checkpoint directory, when the context starts them: what
 * is set after a stream was created, but before start, applies to it.
 */
class SourceSettingsAtStartTest {
    @TempDir
    Path dir;

    @Test
    void aFileStreamUsesSettingsSetAfterItWasCreated() throws Exception {
        try (StreamTester t = new StreamTester()) {
            Collected<String> out = t.collect(t.context().textFileStream(dir.resolve("in").toString()));
            t.context().conf(SourceSettings.BAD_RECORDS, "skip")
                    .conf(SourceSettings.MAX_LINE_LENGTH, "8");
            t.runBatches(0);
            Path staged = Files.writeString(dir.resolve("lines.txt"), "short\nfar too long\nok\n",
                    StandardCharsets.UTF_8);
            Files.setLastModifiedTime(staged, FileTime.fromMillis(500));
            Files.createDirectories(dir.resolve("in"));
            Files.move(staged, dir.resolve("in/lines.txt"));
            BatchInfo batch = t.runBatches(1).get(0);
            assertEquals(List.of(List.of("short", "ok")), out.batches());
            assertEquals(1, batch.skippedRecords());
        }
    }

    @Test
    void aRateStreamUsesBackpressureSetAfterItWasCreated() {
        try (StreamTester t = new StreamTester()) {
            Collected<String> out = t.collect(t.context().rateStream(1000, 3, 7L));
            t.context().conf(Settings.BACKPRESSURE_ENABLED, "true").conf(Settings.BACKPRESSURE_INITIAL_RATE, "5");
            BatchInfo first = t.runBatches(1).get(0);
            assertEquals(5, first.numRecords(), "the first batch holds the initial rate × 1 s");
            assertEquals(5, out.batches().get(0).size());
        }
    }

    @Test
    void aReceiverStreamLogsToACheckpointDirectorySetAfterItWasCreated() throws Exception {
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> numbers = t.context().receiverStream(new ReceiverWriteAheadLogTest.Numbers());
            Collected<Integer> out = t.collect(numbers);
            t.context().conf(SourceSettings.WRITE_AHEAD_LOG, "true");
            t.context().checkpoint(dir.resolve("checkpoints").toString());
            t.runBatches(0);
            awaitReceived(numbers, 150, 0);
            t.runBatches(1);
            assertEquals(List.of(Collected.multiset(IntStream.range(0, 150).boxed().toList())), out.unordered());
            assertTrue(Files.isDirectory(dir.resolve("checkpoints/receivedBlockMetadata")),
                    "the driver logged the blocks under the checkpoint directory set after the stream was made");
        }
    }
}
