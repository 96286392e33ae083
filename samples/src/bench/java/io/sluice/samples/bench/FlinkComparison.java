package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import io.sluice.dstream.MapWithStateDStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.streaming.api.java.JavaDStream;

/**
 * W2f and W2r: W2 on Sluice against Flink 2.3.0's keyed running count over the same records (issue #35 point 3,
 * issue #34 point 6). Sluice's side is W2 itself ({@link StandardRun}, its state backend set by {@code
 * sluice.state.backend}); Flink's is samples/flink's {@code FlinkSide} in a JVM of its own whose class path has Flink
 * and no Spark: the best of {@code bench.flink.repetitions} runs over all the batches' records after a warm-up run,
 * parallelism 2. Both sides must give the same {@link RunningCountCheck}.
 */
final class FlinkComparison implements Workload {
    /** Where samples/flink's build put its classes and its class path file (set by samples' pom). */
    static final String FLINK_HOME = "bench.flink.home";
    static final String FLINK_MAIN = "io.sluice.bench.flink.FlinkSide";

    private final String id;
    private final String backend;
    private final double target;

    private FlinkComparison(String id, String backend, double target) {
        this.id = id;
        this.backend = backend;
        this.target = target;
    }

    /** W2f: W2 on Sluice's heap state against Flink's HashMapStateBackend; target 1.5×. */
    static FlinkComparison heap() {
        return new FlinkComparison("W2f", "heap", 1.5);
    }

    /** W2r: W2 on Sluice's RocksDB state backend against Flink's EmbeddedRocksDBStateBackend; target 2×. */
    static FlinkComparison rocksDb() {
        return new FlinkComparison("W2r", "rocksdb", 2.0);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String description() {
        return "W2 on " + backend + " state against Flink 2.3.0's keyed running count (ValueState, " + backend
                + " state, parallelism 2, best repetition) on the same records";
    }

    @Override
    public Figure figure() {
        return Figure.THROUGHPUT;
    }

    @Override
    public double target() {
        return target;
    }

    @Override
    public Side baseline() {
        return Side.FLINK;
    }

    String backend() {
        return backend;
    }

    /** Flink runs the whole input 1 + repetitions times; RocksDB at about 250 k records/s takes half a minute each. */
    @Override
    public Duration timeout(BenchSettings settings) {
        return Workload.super.timeout(settings).plusSeconds(60L * (1 + repetitions()));
    }

    private static final int STANDARD_REPETITIONS = 3;

    private static int repetitions() {
        return Integer.getInteger("bench.flink.repetitions", STANDARD_REPETITIONS);
    }

    @Override
    public boolean standard() {
        return repetitions() == STANDARD_REPETITIONS;
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        if (side != Side.SLUICE) {
            throw new IllegalArgumentException(id + " runs " + side.label() + " through samples/flink's " + FLINK_MAIN
                    + ", not SideRunner");
        }
        SluiceSide w2 = sluiceSide();
        Measurement m = StandardRun.run(w2, side, settings);
        return new Measurement(m.value(), w2.check(settings.batches()).toString(),
                m.detail() + ", sluice.state.backend=" + backend);
    }

    /** Sluice's side: W2's pipeline on this workload's state backend, keeping what {@link RunningCountCheck} needs. */
    SluiceSide sluiceSide() {
        return new SluiceSide(id, backend);
    }

    /** The class path and arguments of the Flink JVM: W2's records of {@code settings.batches()} batches. */
    List<String> flinkMainAndArguments(BenchSettings settings) throws IOException {
        MapWithStateWorkload w2 = new MapWithStateWorkload();
        return flinkMainAndArguments(settings.batches(), w2.recordsPerBatch(), w2.keys(), repetitions());
    }

    List<String> flinkMainAndArguments(int batches, long recordsPerBatch, int keys, int repetitions)
            throws IOException {
        return List.of("-cp", flinkClassPath(), FLINK_MAIN, backend, Integer.toString(batches),
                Long.toString(recordsPerBatch), Integer.toString(keys), Integer.toString(repetitions));
    }

    private static String flinkClassPath() throws IOException {
        String home = System.getProperty(FLINK_HOME);
        if (home == null) {
            throw new IllegalStateException("-D" + FLINK_HOME + " is not set: run the benchmark through Maven "
                    + "(the benchmark profile builds samples/flink and sets it)");
        }
        Path classPathFile = Path.of(home, "flink.classpath");
        if (!Files.isRegularFile(classPathFile)) {
            throw new IllegalStateException("no " + classPathFile + ": build samples/flink first (mvn -pl samples -am)");
        }
        return Path.of(home, "classes") + java.io.File.pathSeparator + Files.readString(classPathFile).trim();
    }

    /** W2 on Sluice, its per-batch counts kept and its final state read after the last batch. */
    static final class SluiceSide implements BatchWorkload {
        private final String id;
        private final String backend;
        private final List<Long> recordsPerBatch = Collections.synchronizedList(new ArrayList<>());
        private final AtomicReference<MapWithStateDStream<String, Integer, Long, Long>> counts = new AtomicReference<>();
        private final AtomicReference<RunningCountCheck> check = new AtomicReference<>();

        private SluiceSide(String id, String backend) {
            this.id = id;
            this.backend = backend;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public String description() {
            return "W2 on " + backend + " state";
        }

        @Override
        public Figure figure() {
            return Figure.THROUGHPUT;
        }

        @Override
        public double target() {
            return 1;
        }

        @Override
        public long recordsPerBatch() {
            return new MapWithStateWorkload().recordsPerBatch();
        }

        @Override
        public int keys() {
            return new MapWithStateWorkload().keys();
        }

        @Override
        public boolean needsCheckpointDirectory() {
            return true;
        }

        @Override
        public Map<String, String> sparkSettings() {
            return Map.of("sluice.state.backend", backend);
        }

        @Override
        public void sluice(DStream<String> input) {
            MapWithStateDStream<String, Integer, Long, Long> running = MapWithStateWorkload.runningCounts(input);
            counts.set(running);
            running.count().foreachRDD(rdd -> recordsPerBatch.addAll(rdd.collect()));
        }

        @Override
        public void sparkStreaming(JavaDStream<String> input) {
            throw new UnsupportedOperationException(id + " compares Sluice with Flink, not with Spark Streaming");
        }

        @Override
        public void afterBatches() {
            List<Long> emitted;
            synchronized (recordsPerBatch) {
                emitted = List.copyOf(recordsPerBatch);
            }
            check.set(RunningCountCheck.of(emitted, counts.get().currentState()));
        }

        /** The check over the first {@code batches} batches (later, empty ones leave the state as it was). */
        RunningCountCheck check(int batches) {
            RunningCountCheck c = check.get();
            if (c == null || c.recordsPerBatch().size() < batches) {
                throw new IllegalStateException(id + ": Sluice's side did not complete " + batches + " batches");
            }
            return new RunningCountCheck(c.recordsPerBatch().subList(0, batches), c.keys(), c.countSum());
        }
    }
}
