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
 * block: {@code block-v3 <sequence> <uniqueId> <records> <skipped> <repaired> <write time> <wal record> <first
 * problem>} (the problem, the rest of the record, is {@code null} for none); logs of the previous format,
 * {@code block-v2} (no repaired count nor problem), are read too.
 */
final class BlockMetadataLog implements AutoCloseable {
    private static final String VERSION = "block-v3";
    private static final String PREVIOUS = "block-v2";

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
                + block.skipped() + " " + block.repaired() + " " + block.writeTime() + " " + block.walRecord() + " "
                + block.firstProblem();
        log.write(line.getBytes(StandardCharsets.UTF_8), now);
    }

    /**
     * Every block still logged, oldest first, each once: a record whose write failed may be complete in the
     * abandoned segment as well as in the one the log wrote it to again.
     */
    List<ReceivedBlock> readAll() {
        List<ReceivedBlock> blocks = new ArrayList<>();
        java.util.Set<Long> sequences = new java.util.HashSet<>();
        try {
            for (LoggedRecord r : log.readAll()) {
                String[] f = new String(r.data(), StandardCharsets.UTF_8).split(" ", 9);
                if (f.length == 7 && f[0].equals(PREVIOUS)) {
                    blocks.add(new ReceivedBlock(Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
                            0, null, orNull(f[6]), Long.parseLong(f[1]), Long.parseLong(f[5])));
                } else if (f.length == 9 && f[0].equals(VERSION)) {
                    blocks.add(new ReceivedBlock(Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
                            Long.parseLong(f[5]), orNull(f[8]), orNull(f[7]), Long.parseLong(f[1]),
                            Long.parseLong(f[6])));
                } else {
                    throw new IOException("not a received-block record of format " + VERSION + " (or " + PREVIOUS
                            + ") at " + r.handle().encode());
                }
                if (!sequences.add(blocks.get(blocks.size() - 1).sequence())) {
                    blocks.remove(blocks.size() - 1);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the received-block log: " + e.getMessage(), e);
        }
        return blocks;
    }

    private static String orNull(String field) {
        return field.equals("null") ? null : field;
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
