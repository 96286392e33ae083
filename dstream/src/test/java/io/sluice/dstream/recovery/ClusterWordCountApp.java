package io.sluice.dstream.recovery;

import io.sluice.dstream.testing.LocalCluster;
import io.sluice.dstream.testing.StateBackends;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.Settings;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.internal.CachedBlocks;
import io.sluice.state.StateSpec;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import org.apache.spark.rdd.RDD;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The application the executor kill test runs on a real multi-process cluster ({@code local-cluster}: a
 * Master and two Workers in this JVM, each executor its own JVM): running word totals with mapWithState over
 * the generator source, on the system clock, the state snapshot of every batch written to a file. Prints
 * "executors n" once both executors registered, then per batch "placement t e=n ..." (how many of its state
 * partitions each executor caches, e.g. "executor_127.0.0.1_0=2") and "completed t delay=ms processing=ms".
 *
 * <p>Arguments: checkpoint directory, output directory, batches to complete before stopping gracefully, and
 * optionally "b:n": once b batches completed, ask for n state partitions (printing "repartitioned n"); each batch
 * then also prints "partitions t n", its number of state partitions.
 */
public final class ClusterWordCountApp {
    static final long RECORDS = 10_000;
    static final int KEYS = 2_000;
    static final long SEED = 11;
    static final int PARTITIONS = 4;
    static final Duration INTERVAL = Duration.ofSeconds(2);
    static final int STATE_CHECKPOINT_BATCHES = 2;

    private ClusterWordCountApp() {
    }

    public static void main(String[] args) throws Exception {
        String checkpoint = args[0];
        String out = args[1];
        int batches = Integer.parseInt(args[2]);
        String[] repartition = args.length > 3 ? args[3].split(":") : null;
        var totals = new java.util.concurrent.atomic.AtomicReference<io.sluice.dstream.MapWithStateDStream<?, ?, ?, ?>>();
        StreamingContext context = StreamingContext.getOrCreate(checkpoint, () -> {
            StreamingContext c = LocalCluster.builder("local-cluster[2,1,512]", "-XX:+UseSerialGC")
                    .appName("executor-kill-test")
                    .batchInterval(INTERVAL)
                    .conf("spark.default.parallelism", String.valueOf(PARTITIONS))
                    .conf(Settings.GRACEFUL_STOP_TIMEOUT, "120s")
                    .conf(StateBackends.SETTING, StateBackends.ofThisJvm())
                    .build();
            c.sparkContext().setLogLevel("WARN");
            PairDStream<String, Long> ones = c.generatorStream(RECORDS, KEYS, SEED, PARTITIONS)
                    .mapToPair(w -> new Tuple2<>(w, 1L));
            var stateful = ones.mapWithState(StateSpec.function(WordCountApp::runningCount).numPartitions(PARTITIONS))
                    .name("totals")
                    .checkpoint(INTERVAL.multipliedBy(STATE_CHECKPOINT_BATCHES));
            totals.set(stateful);
            stateful.stateSnapshots().foreachRDD((rdd, time) -> {
                if (repartition != null) {
                    say("partitions " + time.milliseconds() + " " + rdd.getNumPartitions());
                }
                writeSnapshot(rdd.collect(), out, time.milliseconds());
                say("placement " + time.milliseconds() + " " + placement(rdd.rdd(), time.milliseconds()));
            });
            return c;
        });
        awaitExecutors(context, 2);
        warmUp(context);
        say("executors 2");
        CountDownLatch done = new CountDownLatch(batches);
        context.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                BatchInfo info = event.batchInfo();
                say("completed " + info.batchTime().milliseconds() + " delay=" + info.totalDelay()
                        + " processing=" + info.processingDelay() + " failed=" + info.failed());
                done.countDown();
                if (repartition != null && done.getCount() == batches - Integer.parseInt(repartition[0])) {
                    context.repartitionState(totals.get(), Integer.parseInt(repartition[1]));
                    say("repartitioned " + repartition[1]);
                }
            }
        });
        context.start();
        done.await();
        context.stop(true, true);
        say("stopped");
    }

    /**
     * Where the state partitions of batch {@code time} are cached, as "location=partitions" per executor: the state
     * RDD is found in the lineage of {@code snapshot} by its name.
     */
    private static String placement(RDD<?> snapshot, long time) {
        ArrayDeque<RDD<?>> todo = new ArrayDeque<>(List.of(snapshot));
        while (!todo.isEmpty()) {
            RDD<?> rdd = todo.poll();
            if (rdd.name() != null && rdd.name().endsWith(" state @ " + time)) {
                Map<String, Integer> counts = new TreeMap<>();
                for (int p = 0; p < rdd.getNumPartitions(); p++) {
                    CachedBlocks.hostsOf(rdd, p).forEach(l -> counts.merge(l, 1, Integer::sum));
                }
                return String.join(" ", counts.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
            }
            CollectionConverters.asJava(rdd.dependencies()).forEach(d -> todo.add(d.rdd()));
        }
        throw new IllegalStateException("no state RDD of batch " + time + " in the lineage of " + snapshot);
    }

    /** Blocks until the cluster's executors registered (the driver's own block manager counts as one). */
    public static void awaitExecutors(StreamingContext context, int executors) throws InterruptedException {
        var sc = context.sparkContext().sc();
        java.util.concurrent.Semaphore added = new java.util.concurrent.Semaphore(0);
        sc.addSparkListener(new org.apache.spark.scheduler.SparkListener() {
            @Override
            public void onExecutorAdded(org.apache.spark.scheduler.SparkListenerExecutorAdded event) {
                added.release();
            }
        });
        while (sc.getExecutorMemoryStatus().size() < executors + 1) {
            added.tryAcquire(1, java.util.concurrent.TimeUnit.SECONDS); // re-checks the count on every event
        }
    }

    /** A few jobs like a batch's, so that the stream's delays are not dominated by cold executor JVMs. */
    private static void warmUp(StreamingContext context) {
        var sc = context.sparkContext();
        java.util.List<Integer> ids = java.util.stream.IntStream.range(0, 40_000).boxed().toList();
        for (int round = 0; round < 3; round++) {
            sc.parallelize(ids, PARTITIONS).mapToPair(i -> new Tuple2<>("w" + (i % KEYS), 1L))
                    .reduceByKey(Long::sum, PARTITIONS).count();
        }
    }

    /**
     * The state after a batch, as one local file per batch ({@code state-<t>.txt/part-00000}, the layout
     * saveAsTextFiles would give), replaced atomically: a batch run again rewrites the same file.
     */
    private static void writeSnapshot(java.util.List<Tuple2<String, Long>> state, String out, long time)
            throws java.io.IOException {
        java.nio.file.Path dir = java.nio.file.Path.of(out, "state-" + time + ".txt");
        java.nio.file.Files.createDirectories(dir);
        java.nio.file.Path temp = dir.resolve(".part-00000.tmp");
        java.nio.file.Files.write(temp, state.stream().map(Tuple2::toString).toList());
        java.nio.file.Files.move(temp, dir.resolve("part-00000"), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static void say(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
