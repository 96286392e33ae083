package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.wal.FileWriteAheadLog;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A context's write-ahead logs of received data ({@value SourceSettings#WRITE_AHEAD_LOG}), under its checkpoint
 * directory: per stream, the driver's log of reported blocks ({@code receivedBlockMetadata/}) and the receivers'
 * data logs ({@code receivedData/}, one directory per receiver incarnation), and their cleaning, which runs on a
 * thread of its own.
 */
final class ReceiverLogs {
    private static final Logger LOG = LoggerFactory.getLogger(ReceiverLogs.class);

    private final JavaSparkContext sc;
    private final boolean enabled;
    private final String checkpointDirectory; // null when the context has none
    private final ExecutorService cleaner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "sluice-receiver-log-cleaner");
        t.setDaemon(true);
        return t;
    });

    ReceiverLogs(JavaSparkContext sc, boolean enabled, String checkpointDirectory) {
        this.sc = sc;
        this.enabled = enabled;
        this.checkpointDirectory = checkpointDirectory;
    }

    /** Whether blocks are logged: received data then survives a driver crash. */
    boolean enabled() {
        return enabled;
    }

    /** With the log on: opens the stream's log of reported blocks (before a restore reads it). */
    void open(TrackedReceiver s) {
        if (enabled && !s.blocks().hasLog()) {
            s.blocks().useLog(BlockMetadataLog.open(directory("receivedBlockMetadata", s), sc.hadoopConfiguration()));
        }
    }

    /** Where the stream's receivers log their data, or null with the log off. */
    String dataDirectory(TrackedReceiver s) {
        return enabled ? directory("receivedData", s) : null;
    }

    private String directory(String kind, TrackedReceiver s) {
        String dir = checkpointDirectory;
        if (dir == null) {
            throw new IllegalStateException(SourceSettings.WRITE_AHEAD_LOG + " is set, but there is no checkpoint "
                    + "directory for the log: call checkpoint(directory) or use StreamingContext.getOrCreate");
        }
        // Stable ids may hold characters a Hadoop path does not take ('#'); the id's hash keeps them apart.
        String id = s.stableId();
        return dir + "/" + kind + "/" + id.replaceAll("[^A-Za-z0-9_.-]", "_") + "-"
                + Integer.toHexString(id.hashCode());
    }

    /**
     * With the log on, after batches up to {@code oldestKept} were forgotten: drops log records no batch a restart
     * could run again needs. A restart runs the batches after its last checkpoint again, and checkpoints are
     * written a little after their batches complete; only what is older than a retention of ten batch intervals
     * (at least a minute) before the oldest remembered batch goes. Runs off the scheduler's thread, at most once
     * per half retention.
     */
    void clean(TrackedReceiver s, Time oldestKept, Duration batchInterval) {
        if (!enabled || !s.blocks().hasLog()) {
            return;
        }
        Duration retention = Duration.ofMillis(Math.max(10 * batchInterval.toMillis(), 60_000));
        Time threshold = oldestKept.minus(retention);
        if (!s.blocks().cleaningDue(threshold, retention.dividedBy(2))) {
            return;
        }
        long dataThreshold = s.blocks().oldestWriteNeededAfter(threshold);
        Time metadataThreshold = threshold.minus(batchInterval); // a block reported then went to a batch <= threshold
        try {
            cleaner.execute(() -> {
                try {
                    s.blocks().cleanLog(metadataThreshold);
                    if (dataThreshold >= 0) {
                        cleanDataLogs(s, new Time(dataThreshold));
                    }
                } catch (Exception e) {
                    LOG.warn("{}: cleaning its write-ahead logs failed; they are cleaned again later", s.source(), e);
                }
            });
        } catch (RejectedExecutionException stopped) {
            // The receivers stopped (a graceful stop still completes its last batches): the next run cleans.
            LOG.debug("{}: write-ahead log cleaning skipped, the receivers have stopped", s.source());
        }
    }

    /** Every receiver incarnation's data log of the stream (the live ones write only newer records). */
    private void cleanDataLogs(TrackedReceiver s, Time threshold) throws IOException {
        Path root = new Path(directory("receivedData", s));
        FileSystem fs = root.getFileSystem(sc.hadoopConfiguration());
        if (!fs.exists(root)) {
            return;
        }
        for (FileStatus dir : fs.listStatus(root)) {
            if (dir.isDirectory()) {
                try (var log = FileWriteAheadLog.open(dir.getPath().toString(), sc.hadoopConfiguration())) {
                    log.clean(threshold);
                }
            }
        }
    }

    /** Once every receiver stopped: lets the cleaning under way finish, and takes no more. */
    void close() {
        cleaner.shutdown();
        try {
            cleaner.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
