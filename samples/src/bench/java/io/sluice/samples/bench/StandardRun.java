package io.sluice.samples.bench;

import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.StreamingContextBuilder;
import io.sluice.dstream.scheduler.BatchInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.streaming.Durations;
import org.apache.spark.streaming.api.java.JavaStreamingContext;
import org.apache.spark.streaming.scheduler.StreamingListener;
import org.apache.spark.streaming.scheduler.StreamingListenerBatchCompleted;
import org.apache.spark.streaming.scheduler.StreamingListenerOutputOperationCompleted;

/**
 * The standard measurement of a {@link BatchWorkload} on one side: the same Spark settings, the same queue of
 * pre-built input RDDs, the real system clock; waits on the side's listener (never sleeps) until every batch
 * completed, then reports the median processing time of the counted batches.
 */
public final class StandardRun {
    private StandardRun() {
    }

    public static Measurement run(BatchWorkload workload, Side side, BenchSettings settings) throws Exception {
        if (!workload.figure().equals(Figure.THROUGHPUT) && !workload.figure().equals(Figure.MS_PER_BATCH)) {
            throw new IllegalStateException(workload.id() + ": a batch workload's figure is throughput or ms per "
                    + "batch; measure other figures in the workload's own run()");
        }
        Batches measured = measure(workload, side, settings);
        List<Long> counted = measured.counted();
        double medianMs = BatchTimes.median(counted);
        double value = workload.figure().equals(Figure.THROUGHPUT)
                ? workload.recordsPerBatch() / (Math.max(medianMs, 1.0) / 1000.0)
                : medianMs;
        String detail = "median " + medianMs + " ms over " + counted.size() + " counted batches " + counted;
        return new Measurement(value, measured.outputDigest(), detail);
    }

    /** The processing times of the counted batches, in batch order, and the digest of every batch's output. */
    record Batches(List<Long> counted, String outputDigest) {
    }

    /** Runs every batch of {@code workload} on {@code side} and returns what {@link #run} makes its figure from. */
    static Batches measure(BatchWorkload workload, Side side, BenchSettings settings) throws Exception {
        BatchTimes times = new BatchTimes(settings.batches());
        Map<String, String> conf = sparkSettings(settings, workload.id() + "-" + side.name().toLowerCase());
        conf.putAll(workload.sparkSettings());
        // a minute less than the forked JVM gets, so that a slow run ends with this message rather than a kill
        Duration timeout = workload.timeout(settings).minusMinutes(1);
        Path checkpoints = workload.needsCheckpointDirectory() ? Files.createTempDirectory("sluice-bench-") : null;
        try {
            if (side == Side.SLUICE) {
                runOnSluice(workload, settings, conf, checkpoints, times, timeout);
            } else {
                runOnSparkStreaming(workload, settings, conf, checkpoints, times, timeout);
            }
        } finally {
            if (checkpoints != null) {
                deleteRecursively(checkpoints);
            }
        }
        return new Batches(times.counted(settings.warmup(), settings.batches()),
                digest(BenchOutput.first(settings.batches())));
    }

    /** The settings both sides get; each side keeps its own defaults for everything else (e.g. serializer). */
    static Map<String, String> sparkSettings(BenchSettings settings, String appName) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.master", settings.master());
        conf.put("spark.app.name", "bench-" + appName);
        conf.put("spark.ui.enabled", "false");
        conf.put("spark.default.parallelism", Integer.toString(settings.defaultParallelism()));
        conf.put("spark.driver.host", "127.0.0.1");
        conf.put("spark.driver.bindAddress", "127.0.0.1");
        // sluice.* system properties of the run (e.g. -Dsluice.shuffle.localExchange=false) try a Sluice setting
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("sluice."))
                .forEach(k -> conf.put(k, System.getProperty(k)));
        return conf;
    }

    private static void runOnSluice(BatchWorkload workload, BenchSettings settings, Map<String, String> conf,
            Path checkpoints, BatchTimes times, Duration timeout) throws Exception {
        StreamingContextBuilder builder = StreamingContext.builder().batchInterval(settings.interval());
        conf.forEach(builder::conf);
        StreamingContext ssc = builder.build();
        try {
            ssc.sparkContext().setLogLevel("WARN");
            if (checkpoints != null) {
                ssc.checkpoint(checkpoints.toString());
            }
            Queue<JavaRDD<String>> queue = new ArrayDeque<>(input(ssc.sparkContext(), workload, settings));
            workload.sluice(ssc.queueStream(queue, true));
            workload.beforeStart(ssc.sparkContext());
            ssc.addStreamingListener(new io.sluice.dstream.scheduler.StreamingListener() {
                @Override
                public void onBatchCompleted(BatchCompleted event) {
                    BatchInfo info = event.batchInfo();
                    String reason = info.outputOperationInfos().values().stream()
                            .map(io.sluice.dstream.scheduler.OutputOperationInfo::failureReason)
                            .filter(java.util.Objects::nonNull).findFirst().orElse(null);
                    times.completed(info.processingDelay(),
                            reason == null ? null : "batch " + info.batchTime() + ": " + Forked.innermost(reason));
                }
            });
            ssc.start();
            times.await(timeout);
            workload.afterBatches();
        } finally {
            ssc.stop(true, false);
        }
    }

    private static void runOnSparkStreaming(BatchWorkload workload, BenchSettings settings, Map<String, String> conf,
            Path checkpoints, BatchTimes times, Duration timeout) throws Exception {
        SparkConf sparkConf = new SparkConf();
        conf.forEach(sparkConf::set);
        JavaStreamingContext ssc = new JavaStreamingContext(new JavaSparkContext(sparkConf),
                Durations.milliseconds(settings.interval().toMillis()));
        try {
            ssc.sparkContext().setLogLevel("WARN");
            if (checkpoints != null) {
                // Spark Streaming cannot checkpoint a queueStream's graph (ssc.checkpoint fails at start), but
                // its state operators only need the SparkContext's checkpoint directory for their RDD checkpoints
                ssc.sparkContext().setCheckpointDir(checkpoints.toString());
            }
            Queue<JavaRDD<String>> queue = new ArrayDeque<>(input(ssc.sparkContext(), workload, settings));
            workload.sparkStreaming(ssc.queueStream(queue, true));
            workload.beforeStart(ssc.sparkContext());
            ssc.addStreamingListener(new StreamingListener() {
                private volatile String failure;

                @Override
                public void onOutputOperationCompleted(StreamingListenerOutputOperationCompleted event) {
                    if (event.outputOperationInfo().failureReason().isDefined()) {
                        failure = event.outputOperationInfo().failureReason().get();
                    }
                }

                @Override
                public void onBatchCompleted(StreamingListenerBatchCompleted event) {
                    long processing = (Long) event.batchInfo().processingDelay().get();
                    times.completed(processing, failure);
                }
            });
            ssc.start();
            times.await(timeout);
            workload.afterBatches();
        } finally {
            ssc.stop(true, false);
        }
    }

    private static List<JavaRDD<String>> input(JavaSparkContext sc, BatchWorkload workload, BenchSettings settings) {
        return workload.input(sc, settings);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Short and comparable: the number of outputs and a hash of all of them. */
    static String digest(List<String> outputs) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String output : outputs) {
                sha.update(output.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return outputs.size() + " outputs, sha256 " + HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
