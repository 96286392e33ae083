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

    /**
     * On a replay clock, how many consecutive batches run as a group (default 50): their outputs that split into
     * tasks and a commit ({@code saveAsTextFiles} on the local file system) run in one Spark job, and each batch
     * then commits in order. 1 runs every batch alone.
     */
    public static final String REPLAY_GROUP_BATCHES = "sluice.replay.groupBatches";

    /**
     * Backpressure (default false; else Spark Streaming's {@code spark.streaming.backpressure.enabled}): a PID
     * estimator follows each source's records and the batches' delays and sets the rate the source keeps to
     * ({@code SourceContext.rateLimit()}). The {@code BACKPRESSURE_*} keys below fall back to Spark Streaming's
     * {@code spark.streaming.backpressure.*} keys of the same name.
     */
    public static final String BACKPRESSURE_ENABLED = "sluice.backpressure.enabled";
    /** The rate (records/s) a source keeps to until the first estimate; default 0: none. */
    public static final String BACKPRESSURE_INITIAL_RATE = "sluice.backpressure.initialRate";
    /** The PID estimator's proportional gain (default 1.0). */
    public static final String BACKPRESSURE_PID_PROPORTIONAL = "sluice.backpressure.pid.proportional";
    /** The PID estimator's integral gain (default 0.2). */
    public static final String BACKPRESSURE_PID_INTEGRAL = "sluice.backpressure.pid.integral";
    /** The PID estimator's derivative gain (default 0.0). */
    public static final String BACKPRESSURE_PID_DERIVED = "sluice.backpressure.pid.derived";
    /** The lowest rate (records/s) the estimator sets (default 100). */
    public static final String BACKPRESSURE_PID_MIN_RATE = "sluice.backpressure.pid.minRate";

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

    /**
     * Executor autoscaling from the ratio of batch processing time to the batch interval (default false; else
     * Spark Streaming's {@code spark.streaming.dynamicAllocation.enabled}). Needs a cluster manager (standalone,
     * YARN, Kubernetes, {@code local-cluster}) and Spark's own {@code spark.dynamicAllocation.enabled=false}; the
     * context refuses to start otherwise. See docs/decisions/0017-autoscaling.md.
     */
    public static final String DYNAMIC_ALLOCATION_ENABLED = "sluice.dynamicAllocation.enabled";
    /** How often the autoscaler decides, over the batches completed since its last decision (default 60s). */
    public static final String DYNAMIC_ALLOCATION_SCALING_INTERVAL = "sluice.dynamicAllocation.scalingInterval";
    /** Average processing time over the batch interval at or above which executors are added (default 0.9). */
    public static final String DYNAMIC_ALLOCATION_SCALING_UP_RATIO = "sluice.dynamicAllocation.scalingUpRatio";
    /** Average processing time over the batch interval at or below which one executor is removed (default 0.3). */
    public static final String DYNAMIC_ALLOCATION_SCALING_DOWN_RATIO = "sluice.dynamicAllocation.scalingDownRatio";
    /** The fewest executors the autoscaler keeps (default: the number of receivers, at least 1). */
    public static final String DYNAMIC_ALLOCATION_MIN_EXECUTORS = "sluice.dynamicAllocation.minExecutors";
    /** The most executors the autoscaler asks for (default: no bound). */
    public static final String DYNAMIC_ALLOCATION_MAX_EXECUTORS = "sluice.dynamicAllocation.maxExecutors";
    /**
     * Whether the state of every stateful operator is re-partitioned to follow the executor count (default
     * false): {@link #DYNAMIC_ALLOCATION_PARTITIONS_PER_EXECUTOR} partitions per executor, applied at the next
     * batch boundary after each change, as {@link StreamingContext#repartitionState} does.
     */
    public static final String DYNAMIC_ALLOCATION_REPARTITION_STATE = "sluice.dynamicAllocation.repartitionState";
    /** State partitions per executor when the state follows the executor count (default 2). */
    public static final String DYNAMIC_ALLOCATION_PARTITIONS_PER_EXECUTOR =
            "sluice.dynamicAllocation.statePartitionsPerExecutor";

    private Settings() {
    }
}
