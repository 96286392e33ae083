package io.sluice.dstream;

import io.sluice.dstream.internal.recovery.Recovery;
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
final class ContextSettings {
    private final JavaSparkContext sc;
    private final Duration batchInterval;
    private final Map<String, String> own = new ConcurrentHashMap<>();

    ContextSettings(JavaSparkContext sc, Duration batchInterval) {
        this.sc = sc;
        this.batchInterval = batchInterval;
    }

    void put(String key, String value) {
        own.put(key, value);
    }

    /** The value of {@code key}, or null when neither this context nor the SparkContext set it. */
    String get(String key) {
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

    Recovery.Settings recovery() {
        String retained = get(Settings.RETAINED_CHECKPOINTS);
        return new Recovery.Settings(
                retained == null ? CheckpointStore.DEFAULT_RETAINED : Integer.parseInt(retained.trim()),
                Boolean.parseBoolean(String.valueOf(get(Settings.SKIP_MISSED_BATCHES)).trim()),
                Boolean.parseBoolean(String.valueOf(get(Settings.ALLOW_DROPPING_STATE)).trim()));
    }
}
