package io.sluice.dstream.source.internal.receiver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.wal.FileWriteAheadLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The driver's block log keeps repaired counts and the first problem, and still reads logs of the v2 format. */
class BlockMetadataLogTest {
    @TempDir
    Path dir;

    @Test
    void writesAndReadsBlocksAndReadsTheFormerFormat() throws Exception {
        String log = dir.resolve("blocks").toString();
        try (FileWriteAheadLog old = FileWriteAheadLog.open(log, new Configuration())) {
            old.write("block-v2 0 4294967297 10 1 1000 null".getBytes(StandardCharsets.UTF_8), new Time(1000));
        }
        ReceivedBlock repaired = new ReceivedBlock(4294967298L, 5, 0, 2,
                "127.0.0.1:9 line 3 is not valid UTF-8 at byte 1", "wal/dir/7", 1, 2000);
        try (BlockMetadataLog blocks = BlockMetadataLog.open(log, new Configuration())) {
            blocks.append(repaired, new Time(2000));
        }
        try (BlockMetadataLog blocks = BlockMetadataLog.open(log, new Configuration())) {
            assertEquals(List.of(new ReceivedBlock(4294967297L, 10, 1, 0, null, null, 0, 1000), repaired),
                    blocks.readAll());
        }
    }

    /**
     * A restarted driver's generation counter starts again, so new receivers must get a generation above the
     * logged blocks': the chaos run found a batch run again after a restart reading a new block of the same id from
     * the block manager instead of its logged one (records lost and others counted twice).
     */
    @Test
    void aStreamTakingUpTheLogKnowsTheNewestGenerationInIt() throws Exception {
        String log = dir.resolve("blocks").toString();
        try (BlockMetadataLog blocks = BlockMetadataLog.open(log, new Configuration())) {
            blocks.append(new ReceivedBlock((7L << 32) | 3, 5, 0, 0, null, "wal/dir/1", 0, 1000), new Time(1000));
            blocks.append(new ReceivedBlock((2L << 32) | 9, 5, 0, 0, null, "wal/dir/2", 1, 1000), new Time(1000));
        }
        ReceivedBlocks stream = new ReceivedBlocks("test");
        assertEquals(0, stream.newestLoggedGeneration());
        stream.useLog(BlockMetadataLog.open(log, new Configuration()));
        assertEquals(7, stream.newestLoggedGeneration());
        stream.closeLog();
    }
}
