package io.sluice.samples.bench;

import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.StreamingContextBuilder;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import org.apache.spark.streaming.Durations;
import org.apache.spark.streaming.api.java.JavaStreamingContext;
import org.apache.spark.streaming.scheduler.StreamingListener;
import org.apache.spark.streaming.scheduler.StreamingListenerBatchCompleted;
import scala.Tuple2;

/**
 * L1: end-to-end latency. A receiver ({@link StampedRecords}, the same emitter on both engines) stores
 * {@code bench.l1.rate} records a second (20,000), one at a time, each stamped with the time it was due; {@code
 * mapToPair} → {@code mapWithState} running count over 10,000 keys (4 state partitions) emitting each record's due
 * time → an output that collects them and, once that job has completed, records now minus due time per record.
 * Each engine runs at batch intervals of 1000, 500, 250, 100, 50 and 25 ms ({@code bench.l1.intervals}), each in a
 * fresh streaming context on the side's one SparkContext, with a checkpoint directory (Spark Streaming's
 * mapWithState needs one), for {@code bench.l1.warmup.s} (20) then {@code bench.l1.measure.s} (60) seconds. The
 * figure is the best p99 over the sustained intervals (see {@link LatencyRecorder.Result#sustained()}).
 */
final class LatencyWorkload implements Workload {
    static final int KEYS = 10_000;

    /** L1's own settings; a run with other values than the defaults does not update docs/performance.md. */
    record Settings(int perSecond, List<Duration> intervals, Duration warmup, Duration measure) {
        static final Settings DEFAULT = new Settings(20_000, Stream.of(1000, 500, 250, 100, 50, 25)
                .map(Duration::ofMillis).toList(), Duration.ofSeconds(20), Duration.ofSeconds(60));

        static Settings fromSystemProperties() {
            String intervals = System.getProperty("bench.l1.intervals");
            return new Settings(Integer.getInteger("bench.l1.rate", DEFAULT.perSecond),
                    intervals == null ? DEFAULT.intervals : Arrays.stream(intervals.split(","))
                            .map(ms -> Duration.ofMillis(Long.parseLong(ms.trim()))).toList(),
                    Duration.ofSeconds(Long.getLong("bench.l1.warmup.s", DEFAULT.warmup.toSeconds())),
                    Duration.ofSeconds(Long.getLong("bench.l1.measure.s", DEFAULT.measure.toSeconds())));
        }

        /** The input: {@code perSecond} records a second over {@link #KEYS} keys. */
        StampedRecords.Emitter emitter() {
            return new StampedRecords.Emitter(perSecond, KEYS);
        }

        /** How long records may still arrive after the window: 2 s and 3 intervals. */
        static Duration grace(Duration interval) {
            return Duration.ofSeconds(2).plus(interval.multipliedBy(3));
        }
    }

    @Override
    public String id() {
        return "L1";
    }

    @Override
    public String description() {
        return "receiver of 20,000 stamped records/s → mapToPair → mapWithState running count (10,000 keys) "
                + "→ output; best p99 over the sustained intervals of 1000 to 25 ms";
    }

    @Override
    public Figure figure() {
        return Figure.lowerIsBetter("best sustained p99 latency", "ms");
    }

    @Override
    public double target() {
        return 0.25;
    }

    @Override
    public boolean standard() {
        return Settings.fromSystemProperties().equals(Settings.DEFAULT);
    }

    @Override
    public Duration timeout(BenchSettings settings) {
        Settings l1 = Settings.fromSystemProperties();
        Duration total = Duration.ofMinutes(2);
        for (Duration interval : l1.intervals()) {
            total = total.plus(l1.warmup()).plus(l1.measure()).plus(Settings.grace(interval)).plusSeconds(30);
        }
        return total;
    }

    static Long count(Integer key, Optional<Long> due, State<Long> count) {
        count.update((count.exists() ? count.get() : 0L) + 1);
        return due.get();
    }

    static Long countOnSpark(Integer key, Optional<Long> due, org.apache.spark.streaming.State<Long> count) {
        count.update((count.exists() ? count.get() : 0L) + 1);
        return due.get();
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        Settings l1 = Settings.fromSystemProperties();
        Map<String, String> conf = StandardRun.sparkSettings(settings, id() + "-" + side.name().toLowerCase());
        Path checkpoints = Files.createTempDirectory("sluice-l1-");
        List<LatencyRecorder.Result> results;
        try {
            results = side == Side.SLUICE ? onSluice(l1, conf, checkpoints) : onSparkStreaming(l1, conf, checkpoints);
        } finally {
            try (Stream<Path> paths = Files.walk(checkpoints)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        LatencyTable.print(side, results);
        return LatencyTable.measurement(results);
    }

    private static List<LatencyRecorder.Result> onSluice(Settings l1, Map<String, String> conf, Path checkpoints)
            throws InterruptedException {
        List<LatencyRecorder.Result> results = new ArrayList<>();
        JavaSparkContext sc = null;
        try {
            for (Duration interval : l1.intervals()) {
                StreamingContext ssc;
                if (sc == null) {
                    StreamingContextBuilder builder = StreamingContext.builder().batchInterval(interval);
                    conf.forEach(builder::conf);
                    ssc = builder.build();
                    sc = ssc.sparkContext();
                    sc.setLogLevel("WARN");
                } else {
                    ssc = StreamingContext.create(sc, interval);
                }
                ssc.checkpoint(checkpoints.resolve("sluice-" + interval.toMillis()).toString());
                ssc.receiverStream(new StampedRecords.OnSluice(l1.emitter()))
                        .mapToPair(r -> new Tuple2<>(r.key(), r.dueMillis()))
                        .mapWithState(StateSpec.function(LatencyWorkload::count).numPartitions(4))
                        .foreachRDD(rdd -> LatencyRecorder.recordOutput(rdd.collect()));
                LatencyRecorder recorder = window(l1);
                ssc.addStreamingListener(new io.sluice.dstream.scheduler.StreamingListener() {
                    @Override
                    public void onBatchCompleted(BatchCompleted event) {
                        recorder.batchCompleted(event.batchInfo().batchTime().milliseconds(),
                                event.batchInfo().schedulingDelay());
                    }
                });
                ssc.start();
                ssc.awaitTerminationOrTimeout(untilEnd(l1, interval));
                ssc.stop(false, false);
                results.add(recorder.result(interval, expected(l1)));
                System.out.println("L1 on Sluice, " + results.get(results.size() - 1));
            }
        } finally {
            if (sc != null) {
                sc.stop();
            }
        }
        return results;
    }

    private static List<LatencyRecorder.Result> onSparkStreaming(Settings l1, Map<String, String> conf,
            Path checkpoints) throws InterruptedException {
        List<LatencyRecorder.Result> results = new ArrayList<>();
        SparkConf sparkConf = new SparkConf();
        conf.forEach(sparkConf::set);
        JavaSparkContext sc = new JavaSparkContext(sparkConf);
        try {
            sc.setLogLevel("WARN");
            for (Duration interval : l1.intervals()) {
                JavaStreamingContext ssc = new JavaStreamingContext(sc, Durations.milliseconds(interval.toMillis()));
                ssc.checkpoint(checkpoints.resolve("spark-" + interval.toMillis()).toString());
                ssc.receiverStream(new StampedRecords.OnSparkStreaming(l1.emitter()))
                        .mapToPair(r -> new Tuple2<>(r.key(), r.dueMillis()))
                        .mapWithState(org.apache.spark.streaming.StateSpec.function(LatencyWorkload::countOnSpark)
                                .numPartitions(4))
                        .foreachRDD(rdd -> LatencyRecorder.recordOutput(rdd.collect()));
                LatencyRecorder recorder = window(l1);
                ssc.addStreamingListener(new StreamingListener() {
                    @Override
                    public void onBatchCompleted(StreamingListenerBatchCompleted event) {
                        recorder.batchCompleted(event.batchInfo().batchTime().milliseconds(),
                                (Long) event.batchInfo().schedulingDelay().get());
                    }
                });
                ssc.start();
                ssc.awaitTerminationOrTimeout(untilEnd(l1, interval));
                ssc.stop(false, false);
                results.add(recorder.result(interval, expected(l1)));
                System.out.println("L1 on Spark Streaming, " + results.get(results.size() - 1));
            }
        } finally {
            sc.stop();
        }
        return results;
    }

    /** A recorder whose window starts after the warm-up from now. */
    private static LatencyRecorder window(Settings l1) {
        long start = System.currentTimeMillis() + l1.warmup().toMillis();
        return LatencyRecorder.start(start, start + l1.measure().toMillis());
    }

    /** Milliseconds from now to the end of the window plus the grace for its last records. */
    private static long untilEnd(Settings l1, Duration interval) {
        return l1.warmup().plus(l1.measure()).plus(Settings.grace(interval)).toMillis();
    }

    private static long expected(Settings l1) {
        return l1.measure().toSeconds() * l1.perSecond();
    }
}
