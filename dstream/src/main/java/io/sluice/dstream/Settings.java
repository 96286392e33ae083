package io.sluice.dstream;

/**
 * The names of a streaming context's own settings, set with {@link StreamingContextBuilder#conf} or
 * {@link StreamingContext#conf}, or in the SparkConf. Where a Sluice key is not set, the Spark Streaming key it
 * replaces is read, with Spark Streaming's default. The sources' settings ({@code sluice.input.*},
 * {@code sluice.receiver.*}) are listed in the README's settings table.
 */
public final class Settings {
    /** Output operations run at once (across batches); 1 runs batches strictly in order. */
    public static final String CONCURRENT_JOBS = "sluice.concurrentJobs";
    /** How long a graceful stop waits for received data to be processed; default 10 batch intervals. */
    public static final String GRACEFUL_STOP_TIMEOUT = "sluice.gracefulStopTimeout";
    /** Whether a JVM shutdown stops the context gracefully (default false: it stops at once). */
    public static final String STOP_GRACEFULLY_ON_SHUTDOWN = "sluice.stopGracefullyOnShutdown";
    /**
     * When true, a failed batch is logged and reported to listeners only, and the context goes on; by default
     * (false) it is also reported to {@link StreamingContext#awaitTermination()}, which then throws, as in Spark
     * Streaming.
     */
    public static final String CONTINUE_ON_BATCH_FAILURE = "sluice.continueOnBatchFailure";

    /** Completed batches the Streaming page and the run report keep (default 1000, else Spark Streaming's key). */
    public static final String UI_RETAINED_BATCHES = "sluice.ui.retainedBatches";
    /** A file the run report is written to when the context stops (default: none). */
    public static final String UI_REPORT_FILE = "sluice.ui.reportFile";

    /** How many checkpoints the checkpoint directory keeps (older ones and their state files are deleted). */
    public static final String RETAINED_CHECKPOINTS = "sluice.checkpoint.retained";
    /** After a restart, skip the batches missed while the driver was down instead of generating them. */
    public static final String SKIP_MISSED_BATCHES = "sluice.recovery.skipMissedBatches";
    /** Start even if saved state or source positions match no operator of the new graph (dropping them). */
    public static final String ALLOW_DROPPING_STATE = "sluice.recovery.allowDroppingState";

    private Settings() {
    }
}
