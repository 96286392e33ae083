package io.sluice.dstream.source.internal.receiver;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.wal.FileWriteAheadLog;
import io.sluice.recovery.internal.wal.LoggedRecord;
import io.sluice.recovery.internal.wal.WriteAheadLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * The driver's log of the blocks one receiver stream reported, written before the driver acknowledges a block:
 * after a driver crash it tells which logged blocks exist, in the order they arrived, so that batches run again
 * read exactly the blocks they read before and the blocks no batch took go to the next one. One text record per
 * block: {@code block-v2 <sequence> <uniqueId> <records> <skipped> <write time> <wal record>}.
 */
final class BlockMetadataLog implements AutoCloseable {
    private static final String VERSION = "block-v2";

    private final WriteAheadLog log;

    private BlockMetadataLog(WriteAheadLog log) {
        this.log = log;
    }

    static BlockMetadataLog open(String directory, Configuration conf) {
        try {
            return new BlockMetadataLog(FileWriteAheadLog.open(directory, conf));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the received-block log in " + directory + ": " + e, e);
        }
    }

    void append(ReceivedBlock block, Time now) throws IOException {
        String line = VERSION + " " + block.sequence() + " " + block.uniqueId() + " " + block.records() + " "
                + block.skipped() + " " + block.writeTime() + " " + block.walRecord();
        log.write(line.getBytes(StandardCharsets.UTF_8), now);
    }

    /** Every block still logged, oldest first. */
    List<ReceivedBlock> readAll() {
        List<ReceivedBlock> blocks = new ArrayList<>();
        try {
            for (LoggedRecord r : log.readAll()) {
                String[] f = new String(r.data(), StandardCharsets.UTF_8).split(" ");
                if (f.length != 7 || !f[0].equals(VERSION)) {
                    throw new IOException("not a received-block record of format " + VERSION + " at "
                            + r.handle().encode());
                }
                blocks.add(new ReceivedBlock(Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
                        f[6].equals("null") ? null : f[6], Long.parseLong(f[1]), Long.parseLong(f[5])));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the received-block log: " + e.getMessage(), e);
        }
        return blocks;
    }

    /** Forgets blocks logged before {@code threshold} (driver clock). */
    void clean(Time threshold) throws IOException {
        log.clean(threshold);
    }

    @Override
    public void close() throws IOException {
        log.close();
    }
}
