package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.internal.scaling.Autoscaler;
import io.sluice.dstream.testing.LocalCluster;
import io.sluice.dstream.testing.LogCapture;
import io.sluice.dstream.testing.StandaloneCluster;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.Optional;
import org.apache.spark.api.java.function.VoidFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * Executor autoscaling on a standalone cluster (a Master and two Workers of one core, separate JVMs): running
 * counts over a deterministic source, with a sink whose cost per record the test raises and lowers. Under the
 * slow sink one executor falls behind, the autoscaler adds the second (state spread over both, re-partitioned
 * from 2 to 4 partitions) and the delay comes back under the batch interval; when the sink is cheap again it
 * moves the state off one executor and removes it (no executor is killed with state on it). The state equals the
 * counts of the input after every batch.
 * Waits on batches, never on time; prints the timeline.
 */
class AutoscalingClusterTest {
    private static final Duration INTERVAL = Duration.ofSeconds(2);
    private static final long PER_BATCH = 200;
    private static final int KEYS = 20;
    /** Sink cost per record while slow: a batch of 200 records takes 2 s of sleep on one executor, 1 s on two. */
    private static final long SLOW_MICROS = 10_000;
    private static final long PHASE_SECONDS = 150;

    /** Kept when the test fails: the cluster's logs, which the failure message quotes. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;
    private static StandaloneCluster cluster;
    private static StreamingContext context;

    /** One completed batch as the test saw it. */
    private record Row(long batch, int executors, long processing, long delay, boolean stateExact) {
        @Override
        public String toString() {
            return String.format("batch %3d  executors %d  processing %5d ms  total delay %5d ms  state %s", batch,
                    executors, processing, delay, stateExact ? "exact" : "WRONG");
        }
    }

    private final AtomicLong sinkMicros = new AtomicLong();
    private final Map<Long, Boolean> exact = new java.util.concurrent.ConcurrentHashMap<>();
    private final BlockingQueue<Row> rows = new LinkedBlockingQueue<>();
    private final List<Row> timeline = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = StandaloneCluster.startForThisDriver(dir, 2, 1, "700m", 120);
    }

    @AfterAll
    static void stopAll() throws Exception {
        try {
            if (context != null) {
                context.stop(true, false);
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private static String key(long offset) {
        return "k" + offset % KEYS;
    }

    private static String count(String key, Optional<Integer> one, State<Long> state) {
        long total = state.getOption().orElse(0L) + one.get();
        state.update(total);
        return key + ":" + total;
    }

    /** The counts after the first {@code batches} batches. */
    private static Map<String, Long> expected(long batches) {
        Map<String, Long> counts = new TreeMap<>();
        for (long o = 0; o < batches * PER_BATCH; o++) {
            counts.merge(key(o), 1L, Long::sum);
        }
        return counts;
    }

    /** Writes each record at {@code micros} per record: a sleep per partition, in the executors' tasks. */
    private static VoidFunction<java.util.Iterator<String>> sink(long micros) {
        return records -> {
            long n = 0;
            while (records.hasNext()) {
                records.next();
                n++;
            }
            Thread.sleep(n * micros / 1000);
        };
    }

    @Test
    void growsFromOneToTwoExecutorsUnderASlowSinkAndShrinksBackWithExactState() throws Exception {
        context = LocalCluster.builder(cluster.masterUrl(), "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
                .appName("autoscaling").batchInterval(INTERVAL)
                .conf("spark.executor.cores", "1").conf("spark.cores.max", "2")
                .conf(Settings.DYNAMIC_ALLOCATION_ENABLED, "true")
                .conf(Settings.DYNAMIC_ALLOCATION_SCALING_INTERVAL, "6s")
                .conf(Settings.DYNAMIC_ALLOCATION_MIN_EXECUTORS, "1")
                .conf(Settings.DYNAMIC_ALLOCATION_MAX_EXECUTORS, "2")
                .conf(Settings.DYNAMIC_ALLOCATION_REPARTITION_STATE, "true")
                .build();
        assertEquals(cluster.masterUrl(), context.sparkContext().master(),
                "the context runs on the standalone cluster, not on a SparkContext it adopted");
        MapWithStateDStream<String, Integer, Long, String> counts = OffsetSource.stream(context, PER_BATCH)
                .mapToPair(o -> new Tuple2<>(key(o), 1))
                .mapWithState(StateSpec.function(AutoscalingClusterTest::count).numPartitions(2)).name("counts");
        counts.foreachRDD((JavaRDD<String> rdd) -> rdd.foreachPartition(sink(sinkMicros.get())));
        AtomicLong batches = new AtomicLong();
        counts.stateSnapshots().foreachRDD((rdd, time) -> exact.put(time.milliseconds(),
                new TreeMap<>(rdd.collectAsMap()).equals(expected(batches.incrementAndGet()))));
        long start = System.currentTimeMillis();
        context.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                BatchInfo info = event.batchInfo();
                rows.add(new Row(batches.get(), ExecutorLocation.executors(context.sparkContext().sc()).size(),
                        info.processingDelay(), info.totalDelay(), exact.getOrDefault(info.batchTime().milliseconds(),
                                false)));
            }
        });
        LogCapture autoscalerWarnings = new LogCapture(Autoscaler.class);
        context.start();
        try {
            Row cheap = await(r -> r.executors() == 1 && r.delay() < INTERVAL.toMillis(),
                    "one executor keeping up while the sink is cheap (the start's backlog worked off)");
            sinkMicros.set(SLOW_MICROS);
            long slowFrom = cheap.batch() + 1;
            Row grown = await(r -> r.executors() == 2 && r.batch() > slowFrom, "a second executor under load");
            Row caughtUp = await(r -> r.executors() == 2 && r.delay() < INTERVAL.toMillis() && r.batch() > grown.batch(),
                    "the delay back under the batch interval on two executors");
            sinkMicros.set(0);
            Row shrunk = await(r -> r.executors() == 1 && r.batch() > caughtUp.batch(), "back to one executor");
            await(r -> r.batch() >= shrunk.batch() + 2, "two more batches on one executor");
            assertTrue(timeline.stream().anyMatch(r -> r.batch() >= slowFrom && r.batch() < grown.batch()
                    && r.delay() > INTERVAL.toMillis()), "one executor fell behind under the slow sink");
        } finally {
            autoscalerWarnings.close();
            System.out.println("Autoscaling timeline (" + (System.currentTimeMillis() - start) / 1000 + " s):");
            timeline.forEach(System.out::println);
        }
        assertEquals(List.of(), timeline.stream().filter(r -> !r.stateExact()).toList(), "the state after every batch");
        assertEquals(List.of(), autoscalerWarnings.warnings(),
                "no executor killed with state still on it, no scaling step failed");
    }

    /** Takes completed batches until one matches {@code wanted}; fails after {@link #PHASE_SECONDS}. */
    private Row await(Predicate<Row> wanted, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PHASE_SECONDS);
        while (true) {
            Row row = rows.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (row == null) {
                throw new AssertionError("no batch showed " + what + " within " + PHASE_SECONDS + " s\n"
                        + cluster.diagnostics());
            }
            timeline.add(row);
            if (wanted.test(row)) {
                return row;
            }
        }
    }
}
