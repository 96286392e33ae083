package io.sluice.dstream.source.internal.receiver;

import io.sluice.rdd.Time;
import io.sluice.rdd.internal.BlockStore;
import io.sluice.recovery.internal.wal.FileWriteAheadLog;
import io.sluice.recovery.internal.wal.RecordHandle;
import io.sluice.recovery.internal.wal.WriteAheadLog;
import java.io.IOException;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One receiver incarnation's write-ahead log of the blocks it stores, in a directory of its own under the
 * stream's: one writer per log, and a restarted receiver never appends to a segment an earlier one may have left
 * torn. Records are written with the context's Kryo registrations made fit for files, so a record of a class not
 * registered is refused ({@link io.sluice.rdd.internal.FileKryo.UnwritableClassException}).
 */
final class ReceivedDataLog {
    private static final Logger LOG = LoggerFactory.getLogger(ReceivedDataLog.class);

    private final String directory;
    private final WriteAheadLog log;

    private ReceivedDataLog(String directory, WriteAheadLog log) {
        this.directory = directory;
        this.log = log;
    }

    static ReceivedDataLog open(String streamDirectory, Configuration conf) throws IOException {
        String directory = streamDirectory + "/" + UUID.randomUUID();
        return new ReceivedDataLog(directory, FileWriteAheadLog.open(directory, conf));
    }

    /** Logs a block's records at {@code time} (the driver's clock); returns where, for the driver to keep. */
    String write(List<Object> records, long time) throws IOException {
        RecordHandle handle = log.write(BlockStore.serialize(records), new Time(time));
        return directory + "/" + handle.encode();
    }

    void close(String source) {
        try {
            log.close();
        } catch (IOException e) {
            LOG.warn("{}: closing the write-ahead log failed", source, e);
        }
    }
}
