package io.sluice.samples.bench;

import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.StreamingContextBuilder;
import io.sluice.state.StateSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import org.apache.spark.streaming.Durations;
import org.apache.spark.streaming.api.java.JavaStreamingContext;
import org.apache.spark.streaming.scheduler.StreamingListenerBatchCompleted;
import scala.Tuple2;

/**
 * W5 and W6: a mapWithState running count holding 1,000,000 keys (its initial state) over a replayable
 * source of 10,000 records per batch, checkpointed every batch, on each engine with its own getOrCreate.
 *
 * <p>{@code setup} builds the state, waits until a checkpoint of it is complete (three batches), prints the
 * bytes its first full state checkpoint wrote, and dies by {@code Runtime.halt} (a crash: no shutdown hook, no
 * stop). {@code restart} recovers from that directory and prints "first-batch" when its first batch completes;
 * the parent measures from starting the JVM to that line.
 */
public final class RestartScenario {
    static final int KEYS = 1_000_000;
    static final long RECORDS = 10_000;
    static final int PARTITIONS = 4;
    static final long SEED = 5;
    static final Duration INTERVAL = Duration.ofSeconds(2);
    private static final int SETUP_BATCHES = 3;

    private RestartScenario() {
    }

    /** Arguments: side (SLUICE or SPARK_STREAMING), setup or restart, checkpoint directory. */
    public static void main(String[] args) throws Exception {
        Side side = Side.valueOf(args[0]);
        boolean setup = args[1].equals("setup");
        String dir = args[2];
        CountDownLatch batches = new CountDownLatch(setup ? SETUP_BATCHES : 1);
        if (side == Side.SLUICE) {
            StreamingContext ssc = StreamingContext.getOrCreate(dir, () -> sluice());
            progress("context ready");
            ssc.addStreamingListener(new io.sluice.dstream.scheduler.StreamingListener() {
                @Override
                public void onBatchCompleted(BatchCompleted event) {
                    progress("batch " + event.batchInfo().batchTime().milliseconds() + " processing "
                            + event.batchInfo().processingDelay() + " ms, total delay " + event.batchInfo().totalDelay());
                    batches.countDown();
                }
            });
            ssc.start();
            progress("started");
        } else {
            JavaStreamingContext ssc = JavaStreamingContext.getOrCreate(dir, () -> sparkStreaming(dir));
            progress("context ready");
            ssc.addStreamingListener(new org.apache.spark.streaming.scheduler.StreamingListener() {
                @Override
                public void onBatchCompleted(StreamingListenerBatchCompleted event) {
                    progress("batch " + event.batchInfo().batchTime().milliseconds() + " processing "
                            + event.batchInfo().processingDelay().get() + " ms");
                    batches.countDown();
                }
            });
            ssc.start();
            progress("started");
        }
        batches.await();
        if (setup) {
            say("checkpoint-bytes " + fullCheckpointBytes(side, Path.of(dir)));
        } else {
            say("first-batch");
        }
        Runtime.getRuntime().halt(0);
    }

    private static StreamingContext sluice() {
        StreamingContextBuilder builder = StreamingContext.builder().batchInterval(INTERVAL);
        conf().forEach(builder::conf);
        StreamingContext ssc = builder.build();
        ssc.sparkContext().setLogLevel("WARN");
        ssc.generatorStream(RECORDS, KEYS, SEED, PARTITIONS)
                .mapToPair(w -> new Tuple2<>(w, 1L))
                .mapWithState(StateSpec.function(RestartScenario::count).numPartitions(PARTITIONS)
                        .initialState(initialState(ssc.sparkContext())))
                .name("counts")
                .checkpoint(INTERVAL)
                .count()
                .foreachRDD(rdd -> rdd.collect());
        return ssc;
    }

    private static JavaStreamingContext sparkStreaming(String dir) {
        SparkConf sparkConf = new SparkConf();
        conf().forEach(sparkConf::set);
        JavaStreamingContext ssc = new JavaStreamingContext(new JavaSparkContext(sparkConf),
                Durations.milliseconds(INTERVAL.toMillis()));
        ssc.sparkContext().setLogLevel("WARN");
        ssc.checkpoint(dir);
        org.apache.spark.streaming.api.java.JavaMapWithStateDStream<String, Long, Long, Long> counts =
                new org.apache.spark.streaming.api.java.JavaDStream<>(new GeneratorInputDStream(ssc.ssc(), RECORDS,
                        KEYS, SEED, PARTITIONS, INTERVAL.toMillis()), scala.reflect.ClassTag$.MODULE$.apply(String.class))
                .mapToPair(w -> new Tuple2<>(w, 1L))
                .mapWithState(org.apache.spark.streaming.StateSpec.function(RestartScenario::sparkCount)
                        .numPartitions(PARTITIONS).initialState(initialState(ssc.sparkContext())));
        counts.checkpoint(Durations.milliseconds(INTERVAL.toMillis()));
        counts.count().foreachRDD(rdd -> {
            rdd.collect();
        });
        return ssc;
    }

    private static java.util.Map<String, String> conf() {
        return StandardRun.sparkSettings(BenchSettings.STANDARD, "restart");
    }

    /** "w0" .. "w999999", each with count 0, generated in the tasks. */
    static JavaPairRDD<String, Long> initialState(JavaSparkContext sc) {
        List<Integer> parts = java.util.stream.IntStream.range(0, PARTITIONS).boxed().toList();
        int perPartition = KEYS / PARTITIONS;
        return sc.parallelize(parts, PARTITIONS).flatMapToPair(p -> java.util.stream.IntStream
                .range(p * perPartition, (p + 1) * perPartition)
                .mapToObj(i -> new Tuple2<>("w" + i, 0L)).iterator());
    }

    static Long count(String word, Optional<Long> one, io.sluice.state.State<Long> state) {
        long n = state.getOption().orElse(0L) + one.orElse(0L);
        state.update(n);
        return n;
    }

    static Long sparkCount(String word, Optional<Long> one, org.apache.spark.streaming.State<Long> state) {
        long n = (state.exists() ? state.get() : 0L) + one.orElse(0L);
        state.update(n);
        return n;
    }

    /**
     * The bytes of one full checkpoint of the state: Sluice's first (full) snapshot files plus its progress
     * file; Spark Streaming's largest state RDD checkpoint (each is full) plus one metadata checkpoint file.
     */
    static long fullCheckpointBytes(Side side, Path dir) throws IOException {
        if (side == Side.SLUICE) {
            long state = largest(dir.resolve("state"), n -> n.endsWith("-full"));
            return state + largestFile(dir.resolve("progress"), n -> n.startsWith("checkpoint-"));
        }
        long state = largest(dir, n -> n.startsWith("rdd-"));
        return state + largestFile(dir, n -> n.startsWith("checkpoint-") && !n.endsWith(".bk"));
    }

    /** The largest directory named so, anywhere under {@code root}, by the bytes of the files in it. */
    private static long largest(Path root, java.util.function.Predicate<String> name) throws IOException {
        long max = 0;
        try (Stream<Path> all = Files.walk(root)) {
            for (Path d : all.filter(p -> Files.isDirectory(p) && name.test(p.getFileName().toString())).toList()) {
                try (Stream<Path> files = Files.walk(d)) {
                    long bytes = 0;
                    for (Path f : files.filter(Files::isRegularFile).toList()) {
                        bytes += Files.size(f);
                    }
                    max = Math.max(max, bytes);
                }
            }
        }
        return max;
    }

    private static long largestFile(Path dir, java.util.function.Predicate<String> name) throws IOException {
        long max = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> Files.isRegularFile(p) && name.test(p.getFileName().toString())).toList()) {
                max = Math.max(max, Files.size(f));
            }
        }
        return max;
    }

    /** Where a phase's time goes, on standard error (the log), as seconds since the JVM started. */
    private static void progress(String what) {
        System.err.printf(java.util.Locale.ROOT, "%.2f s after JVM start: %s%n",
                ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0, what);
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    // ---- the parent's side: fork the phases ---------------------------------------------------------------

    /** A phase in its own JVM; returns the line it printed that starts with {@code wanted} and the seconds. */
    record Phase(String line, double seconds) {
    }

    static Phase fork(Side side, String phase, Path dir, String wanted) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx4g");
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens")) {
                command.add(arg);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), RestartScenario.class.getName(),
                side.name(), phase, dir.toString()));
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String found = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (found == null && line.startsWith(wanted)) {
                    found = line;
                    double seconds = (System.nanoTime() - start) / 1e9;
                    process.destroyForcibly().waitFor();
                    return new Phase(found, seconds);
                }
            }
        }
        process.waitFor();
        throw new IllegalStateException(side.label() + " " + phase + " ended (exit " + process.exitValue()
                + ") without printing '" + wanted + "'");
    }
}
