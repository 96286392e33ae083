package io.sluice.dstream;

import static io.sluice.dstream.SourcesTesting.awaitReceived;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.internal.source.SourceSettings;
import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.testing.Collected;
import io.sluice.dstream.testing.StreamTester;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.storage.StreamBlockId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/** Receivers with the write-ahead log on: blocks are logged, and read from the log when the block manager lost them. */
class ReceiverWriteAheadLogTest {
    @TempDir
    Path checkpoints;

    /** Stores 0..99 as one block, then 100..149 one by one. */
    static final class Numbers extends Receiver<Integer> {
        Numbers() {
            super(StorageLevel.MEMORY_ONLY());
        }

        @Override
        public void onStart() {
            Thread t = new Thread(() -> {
                store(IntStream.range(0, 100).boxed().toList());
                IntStream.range(100, 150).forEach(this::store);
            });
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void onStop() {
        }
    }

    @Test
    void blocksTheBlockManagerLostAreReadFromTheLog() throws Exception {
        try (StreamTester t = new StreamTester()) {
            t.context().conf(SourceSettings.WRITE_AHEAD_LOG, "true");
            t.context().checkpoint(checkpoints.toString());
            DStream<Integer> numbers = t.context().receiverStream(new Numbers());
            Collected<Integer> out = t.collect(numbers);
            t.runBatches(0);
            awaitReceived(numbers, 150, 0);
            // Lose every received block, as a restarted driver (or a lost executor) would.
            var master = t.sparkContext().sc().env().blockManager().master();
            List<BlockId> blocks = CollectionConverters.asJava(master.getMatchingBlockIds(
                    id -> id instanceof StreamBlockId, true));
            assertTrue(!blocks.isEmpty());
            blocks.forEach(master::removeBlock);
            t.runBatches(1);
            assertEquals(List.of(Collected.multiset(IntStream.range(0, 150).boxed().toList())), out.unordered());
            try (var dirs = Files.walk(checkpoints.resolve("receivedData"))) {
                assertTrue(dirs.anyMatch(p -> p.getFileName().toString().startsWith("log-")
                        || Files.isRegularFile(p)), "the receiver logged its blocks");
            }
            assertTrue(Files.isDirectory(checkpoints.resolve("receivedBlockMetadata")), "the driver logged them");
        }
    }

    @Test
    void theLogNeedsACheckpointDirectory() {
        try (StreamTester t = new StreamTester()) {
            t.context().conf(SourceSettings.WRITE_AHEAD_LOG, "true");
            t.collect(t.context().receiverStream(new Numbers()));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.runBatches(0));
            assertTrue(e.getMessage().contains("checkpoint"), e.getMessage());
        }
    }
}
