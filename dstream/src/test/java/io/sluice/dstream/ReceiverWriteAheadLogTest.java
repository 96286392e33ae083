package io.sluice.dstream;

import static io.sluice.dstream.SourcesTesting.awaitReceived;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.testing.LineServer;
import io.sluice.testkit.Collected;
import io.sluice.recovery.internal.wal.FileWriteAheadLog;
import io.sluice.testkit.StreamTester;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
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

    /**
     * A text receiver's blocks (packed lines) are logged too: the chaos run found socketTextStream with the log
     * on failing every block ("Class is not registered: PackedLines"), as the log takes registered classes only.
     */
    @Test
    void socketLinesAreLoggedAndReadFromTheLogWhenTheBlockManagerLostThem() throws Exception {
        try (LineServer server = new LineServer(); StreamTester t = new StreamTester()) {
            t.context().conf(SourceSettings.WRITE_AHEAD_LOG, "true");
            t.context().checkpoint(checkpoints.toString());
            DStream<String> lines = t.context().socketTextStream("127.0.0.1", server.port());
            Collected<String> out = t.collect(lines);
            t.runBatches(0);
            try (LineServer.Connection connection = server.accept()) {
                connection.lines("a", "b", "é");
                awaitReceived(lines, 3, 0);
                var master = t.sparkContext().sc().env().blockManager().master();
                List<BlockId> blocks = CollectionConverters.asJava(master.getMatchingBlockIds(
                        id -> id instanceof StreamBlockId, true));
                assertTrue(!blocks.isEmpty());
                blocks.forEach(master::removeBlock);
                t.runBatches(1);
            }
            assertEquals(List.of(Collected.multiset(List.of("a", "b", "é"))), out.unordered());
        }
    }

    @Test
    void theDriversBlockLogForgetsBlocksOlderThanTheRetention() throws Exception {
        Path metadata;
        try (StreamTester t = new StreamTester()) {
            t.context().conf(SourceSettings.WRITE_AHEAD_LOG, "true");
            t.context().checkpoint(checkpoints.toString());
            DStream<Integer> numbers = t.context().receiverStream(new Numbers()).name("numbers");
            t.collect(numbers.count());
            t.runBatches(0);
            awaitReceived(numbers, 150, 0);   // reported at batch-clock time 0
            t.runBatches(1);
            try (var dirs = Files.list(checkpoints.resolve("receivedBlockMetadata"))) {
                metadata = dirs.findFirst().orElseThrow();
            }
            assertTrue(segments(metadata) > 0);
            // The retention is a minute here (10 intervals of 1 s are less); segments roll every minute.
            t.runBatches(160); // cleaned (at most) every 30 s; the segment of time 0 goes once 60 s is a minute past
        } // stopping waits for the cleaner
        try (var files = Files.list(metadata)) {
            assertEquals(0, segments(metadata), "the blocks of batches long done left the driver's log: "
                    + files.map(p -> p.getFileName().toString()).toList());
        }
    }

    /**
     * The executor's log of received data is timed by the driver's clock (here a manual clock an hour in), not
     * by the executor's wall clock: the driver cleans it by the times it knows.
     */
    @Test
    void theReceiversLogRecordsAreTimedByTheDriversClock() throws Exception {
        try (StreamTester t = new StreamTester()) {
            t.clock().setTime(3_600_000);
            t.context().conf(SourceSettings.WRITE_AHEAD_LOG, "true");
            t.context().checkpoint(checkpoints.toString());
            DStream<Integer> numbers = t.context().receiverStream(new Numbers());
            t.collect(numbers.count());
            t.runBatches(0);
            awaitReceived(numbers, 150, 0);
            List<Long> times = new java.util.ArrayList<>();
            try (var dirs = Files.walk(checkpoints.resolve("receivedData"), 2)) {
                for (Path dir : dirs.filter(Files::isDirectory).toList()) {
                    try (var log = FileWriteAheadLog.open(dir.toString(), new Configuration())) {
                        log.readAll().forEach(r -> times.add(r.time().milliseconds()));
                    }
                }
            }
            assertTrue(!times.isEmpty(), "the receiver logged its blocks");
            assertEquals(List.of(3_600_000L), times.stream().distinct().toList(), "record times " + times);
        }
    }

    private static long segments(Path dir) throws java.io.IOException {
        try (var files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith(".")).count();
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
