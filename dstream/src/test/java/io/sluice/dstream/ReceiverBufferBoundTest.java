package io.sluice.dstream;

import static io.sluice.dstream.SourcesTesting.receiverOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.source.internal.receiver.TrackedReceiver;
import io.sluice.dstream.testing.LineServer;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.storage.StreamBlockId;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A receiver whose stored, unreleased blocks pass sluice.receiver.maxBufferedBytes stops reading until batches
 * release them: the server is held back by TCP, and every line it sent is counted exactly once. Its blocks are
 * stored serialized.
 */
class ReceiverBufferBoundTest {
    private static final int LINES = 200_000;
    private static final long BOUND = 256 * 1024;

    @Test
    void aReceiverPausesAboveItsBoundAndLosesNothing() throws Exception {
        try (LineServer server = new LineServer(); StreamTester t = new StreamTester()) {
            List<BlockId> earlierBlocks = streamBlocks(t); // other tests' receivers on the shared SparkContext
            t.context().conf(SourceSettings.MAX_BUFFERED_BYTES, String.valueOf(BOUND))
                    .conf(SourceSettings.BLOCK_INTERVAL, "20ms");
            DStream<String> lines = t.context().socketTextStream("127.0.0.1", server.port());
            Collected<String> out = t.collect(lines);
            t.runBatches(0);
            LineServer.Connection c = server.accept();
            List<String> sent = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < LINES; i++) {
                String line = String.format("line %06d %s", i, "p".repeat(80));
                sent.add(line);
                text.append(line).append('\n');
            }
            // about 18 MB: more than loopback socket buffers hold, 70 times the bound
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
                try {
                    c.bytes(bytes); // blocks while the receiver does not read
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            TrackedReceiver stream = receiverOf(lines);
            // No batch runs: the receiver passes its bound and pauses, asking the driver every block interval
            assertTrue(stream.awaitBufferedAsks(5, SourcesTesting.WAIT), "the receiver paused");
            long bufferedWhilePaused = stream.bufferedBytes();
            long receivedWhilePaused = stream.received();
            // stored serialized, one copy on a local master (the socket's MEMORY_AND_DISK_SER_2, as in Spark Streaming)
            List<BlockId> blocks = streamBlocks(t);
            blocks.removeAll(earlierBlocks);
            assertFalse(blocks.isEmpty());
            for (BlockId block : blocks) {
                StorageLevel level = t.sparkContext().sc().env().blockManager().master().getBlockStatus(block, true)
                        .values().head().storageLevel();
                assertTrue(!level.deserialized() && level.replication() == 1, block + " stored at " + level);
            }
            assertTrue(receivedWhilePaused < LINES / 10, receivedWhilePaused + " lines taken in while paused");
            for (int batch = 0; batch < 5_000 && total(out) < LINES; batch++) {
                t.runBatches(1);
            }
            sending.join();
            List<String> received = new ArrayList<>();
            out.batches().forEach(received::addAll);
            assertEquals(sent, received, "every line once, in order");
            // over the bound by at most the block that passed it: a quarter of the bound, or one pack of 4,096 lines
            long limit = BOUND + BOUND / 4 + 4096 * 100;
            assertTrue(bufferedWhilePaused <= limit && stream.maxBufferedBytes() <= limit, "buffered "
                    + bufferedWhilePaused + " while paused, at most " + stream.maxBufferedBytes() + " bytes");
        }
    }

    private static List<BlockId> streamBlocks(StreamTester t) {
        var master = t.sparkContext().sc().env().blockManager().master();
        return new ArrayList<>(CollectionConverters.asJava(master.getMatchingBlockIds(
                id -> id instanceof StreamBlockId, true)));
    }

    private static int total(Collected<String> out) {
        return out.batches().stream().mapToInt(List::size).sum();
    }
}
