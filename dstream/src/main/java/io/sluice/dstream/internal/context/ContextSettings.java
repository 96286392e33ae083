package io.sluice.dstream.internal.context;

import io.sluice.dstream.Settings;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.internal.recovery.Recovery;
import io.sluice.dstream.internal.scaling.AutoscalingSettings;
import io.sluice.recovery.internal.CheckpointStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.network.util.JavaUtils;

/**
 * A context's settings: its own ({@link StreamingContext#conf}) over the SparkContext's configuration, and
 * where a Sluice key is not set, the Spark Streaming key it replaces, with Spark Streaming's default.
 */
public final class ContextSettings {
    private final JavaSparkContext sc;
    private final Duration batchInterval;
    private final Map<String, String> own = new ConcurrentHashMap<>();

    public ContextSettings(JavaSparkContext sc, Duration batchInterval) {
        this.sc = sc;
        this.batchInterval = batchInterval;
    }

    public void put(String key, String value) {
        own.put(key, value);
    }

    /** The value of {@code key}, or null when neither this context nor the SparkContext set it. */
    public String get(String key) {
        String value = own.get(key);
        return value != null ? value : sc.getConf().get(key, null);
    }

    private String get(String key, String sparkStreamingKey, String defaultValue) {
        String value = get(key);
        if (value == null) {
            value = get(sparkStreamingKey);
        }
        return value == null ? defaultValue : value.trim();
    }

    /** A key without a Spark Streaming equivalent. */
    private String withDefault(String key, String defaultValue) {
        String value = get(key);
        return value == null ? defaultValue : value.trim();
    }

    int concurrentJobs() {
        int n = Integer.parseInt(get(Settings.CONCURRENT_JOBS, "spark.streaming.concurrentJobs", "1"));
        if (n < 1) {
            throw new IllegalArgumentException(Settings.CONCURRENT_JOBS + " must be at least 1, was " + n);
        }
        return n;
    }

    boolean stopsGracefullyOnShutdown() {
        return Boolean.parseBoolean(get(Settings.STOP_GRACEFULLY_ON_SHUTDOWN,
                "spark.streaming.stopGracefullyOnShutdown", "false"));
    }

    boolean continueOnBatchFailure() {
        return Boolean.parseBoolean(get(Settings.CONTINUE_ON_BATCH_FAILURE));
    }

    /** Spark Streaming's default: ten batch intervals. */
    Duration gracefulStopTimeout() {
        String v = get(Settings.GRACEFUL_STOP_TIMEOUT);
        return v == null ? batchInterval.multipliedBy(10) : Duration.ofMillis(JavaUtils.timeStringAsMs(v));
    }

    /** Batches a replay runs as a group ({@link Settings#REPLAY_GROUP_BATCHES}). */
    int replayGroupBatches() {
        int n = Integer.parseInt(withDefault(Settings.REPLAY_GROUP_BATCHES, "50"));
        if (n < 1) {
            throw new IllegalArgumentException(Settings.REPLAY_GROUP_BATCHES + " must be at least 1, was " + n);
        }
        return n;
    }

    /** Completed batches the Streaming page keeps (Spark Streaming's {@code spark.streaming.ui.retainedBatches}). */
    int uiRetainedBatches() {
        return Integer.parseInt(get(Settings.UI_RETAINED_BATCHES, "spark.streaming.ui.retainedBatches",
                "1000"));
    }

    /** Where the run report goes at stop, or null for none. */
    String uiReportFile() {
        String v = get(Settings.UI_REPORT_FILE);
        return v == null || v.isBlank() ? null : v.trim();
    }

    /**
     * The autoscaler's settings, or null when it is off. Refuses, saying what to change, a local master (only a
     * cluster manager adds executors) and Spark's own dynamic allocation (both would resize the same executors;
     * Spark Streaming refuses the pair too).
     */
    AutoscalingSettings autoscaling() {
        String prefix = "spark.streaming.dynamicAllocation.";
        if (!Boolean.parseBoolean(get(Settings.DYNAMIC_ALLOCATION_ENABLED, prefix + "enabled", "false"))) {
            return null;
        }
        if (Boolean.parseBoolean(withDefault("spark.dynamicAllocation.enabled", "false"))) {
            throw new IllegalStateException(Settings.DYNAMIC_ALLOCATION_ENABLED + " and Spark's "
                    + "spark.dynamicAllocation.enabled cannot both be true: set spark.dynamicAllocation.enabled=false "
                    + "to let Sluice scale executors by batch processing time");
        }
        if (sc.isLocal()) {
            throw new IllegalStateException(Settings.DYNAMIC_ALLOCATION_ENABLED + " needs a cluster manager that "
                    + "adds and removes executors (spark://..., yarn, k8s://..., local-cluster[...]); the master is "
                    + sc.master() + ". Run on a cluster or set " + Settings.DYNAMIC_ALLOCATION_ENABLED + "=false");
        }
        String min = get(Settings.DYNAMIC_ALLOCATION_MIN_EXECUTORS, prefix + "minExecutors", null);
        return new AutoscalingSettings(
                Duration.ofMillis(JavaUtils.timeStringAsMs(
                        seconds(get(Settings.DYNAMIC_ALLOCATION_SCALING_INTERVAL, prefix + "scalingInterval", "60s")))),
                Double.parseDouble(get(Settings.DYNAMIC_ALLOCATION_SCALING_UP_RATIO, prefix + "scalingUpRatio", "0.9")),
                Double.parseDouble(get(Settings.DYNAMIC_ALLOCATION_SCALING_DOWN_RATIO, prefix + "scalingDownRatio",
                        "0.3")),
                min == null ? null : Integer.valueOf(min),
                Integer.parseInt(get(Settings.DYNAMIC_ALLOCATION_MAX_EXECUTORS, prefix + "maxExecutors",
                        String.valueOf(Integer.MAX_VALUE))),
                Boolean.parseBoolean(withDefault(Settings.DYNAMIC_ALLOCATION_REPARTITION_STATE, "false")),
                Integer.parseInt(withDefault(Settings.DYNAMIC_ALLOCATION_PARTITIONS_PER_EXECUTOR, "2")));
    }

    /** A bare number of the scaling interval is seconds, as Spark Streaming reads it. */
    private static String seconds(String value) {
        return value.chars().allMatch(Character::isDigit) ? value + "s" : value;
    }

    /** {@code spark.executor.instances} as the autoscaler's start size, or null when unset. */
    Integer executorInstances() {
        String v = get("spark.executor.instances");
        return v == null || v.isBlank() ? null : Integer.valueOf(v.trim());
    }

    public Recovery.Settings recovery() {
        String retained = get(Settings.RETAINED_CHECKPOINTS);
        return new Recovery.Settings(
                retained == null ? CheckpointStore.DEFAULT_RETAINED : Integer.parseInt(retained.trim()),
                Boolean.parseBoolean(String.valueOf(get(Settings.SKIP_MISSED_BATCHES)).trim()),
                Boolean.parseBoolean(String.valueOf(get(Settings.ALLOW_DROPPING_STATE)).trim()));
    }
}
