package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import io.sluice.dstream.MapWithStateDStream;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.streaming.api.java.JavaDStream;

/**
 * One step of W8 in its own 1 GB JVM: W2's pipeline (mapToPair (w, 1) → mapWithState running count, 4 state
 * partitions → count) on one state backend, over {@link LargeStateInput}: fill batches of new keys until the state
 * holds every key, then steady batches over the full state. Figure: keys in the final state / keys filled (1 when it
 * ran to the end); the detail has the records/s while filling, the ms per batch once full, and the bytes per key on
 * disk (RocksDB's files under {@code spark.local.dir}, a fresh folder per run) and in the checkpoint directory.
 */
final class LargeStateRun implements BatchWorkload {
    static final Figure KEYS_FILLED = new Figure("keys in the final state / keys filled", "×", true);

    private final String id;
    private final String backend;
    private final LargeStateInput shape;
    private final AtomicReference<MapWithStateDStream<String, Integer, Long, Long>> counts = new AtomicReference<>();
    private final AtomicReference<String> localDir = new AtomicReference<>();
    private final AtomicReference<Footprint> footprint = new AtomicReference<>();

    /** The final state's size and where its bytes are, read after the last batch. */
    record Footprint(long keys, long countSum, long rocksDbBytes, long checkpointBytes) {
    }

    LargeStateRun(String id, String backend, LargeStateInput shape) {
        this.id = id;
        this.backend = backend;
        this.shape = shape;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "mapWithState filling %,d keys on %s state, 1 GB heap", shape.keys(), backend);
    }

    @Override
    public Figure figure() {
        return KEYS_FILLED;
    }

    @Override
    public double target() {
        return 1;
    }

    @Override
    public long recordsPerBatch() {
        return shape.keysPerBatch();
    }

    @Override
    public int keys() {
        return shape.keys();
    }

    @Override
    public boolean needsCheckpointDirectory() {
        return true;
    }

    /** The executors' heap: local mode runs them in this JVM. */
    @Override
    public List<String> heapFlags() {
        return List.of("-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch");
    }

    @Override
    public java.time.Duration timeout(BenchSettings settings) {
        return java.time.Duration.ofMinutes(30);
    }

    @Override
    public Map<String, String> sparkSettings() {
        return Map.of("sluice.state.backend", backend, "spark.local.dir", localDir.get());
    }

    @Override
    public List<JavaRDD<String>> input(JavaSparkContext sc, BenchSettings settings) {
        return shape.batches(sc);
    }

    @Override
    public void sluice(DStream<String> input) {
        // a state checkpoint every steady-phase length (5 intervals; the default is 10), so that the full state is
        // checkpointed once filling ends and again at the last batch, whatever the number of fill batches
        MapWithStateDStream<String, Integer, Long, Long> running = MapWithStateWorkload.runningCounts(input)
                .checkpoint(input.context().batchInterval().multipliedBy(shape.steadyBatches()));
        counts.set(running);
        running.count().foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }

    @Override
    public void sparkStreaming(JavaDStream<String> input) {
        throw new UnsupportedOperationException(id + " measures Sluice's state backends, not Spark Streaming");
    }

    @Override
    public void afterBatches() throws IOException {
        footprint.set(footprint(Path.of(localDir.get())));
    }

    /** The final state's keys and sum of counts, RocksDB's bytes under {@code localDir}, the checkpoints' bytes. */
    Footprint footprint(Path localDir) throws IOException {
        MapWithStateDStream<String, Integer, Long, Long> running = counts.get();
        JavaPairRDD<String, Long> state = running.currentState();
        long sum = state.isEmpty() ? 0 : state.values().reduce(Long::sum);
        return new Footprint(state.count(), sum, rocksDbBytes(localDir),
                bytesUnder(Path.of(running.context().checkpointDirectory())));
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        Path local = Files.createTempDirectory("sluice-bench-w8-local-");
        localDir.set(local.toString());
        // Spark ends the JVM on an OutOfMemoryError (the heap step's expected end) without unwinding to the finally
        // blocks: the folders of this run go then too
        Runtime.getRuntime().addShutdownHook(new Thread(this::deleteFoldersQuietly, id + "-cleanup"));
        try {
            BenchSettings w8 = new BenchSettings(settings.master(), settings.defaultParallelism(),
                    settings.inputPartitions(), shape.batches(), 0, settings.interval());
            List<Long> times = StandardRun.measure(this, side, w8).counted();
            return measurement(times, footprint.get());
        } finally {
            CheckpointBytes.deleteRecursively(local);
        }
    }

    /** At the JVM's exit, whatever is left of the local and checkpoint folders (Spark may be deleting them too). */
    private void deleteFoldersQuietly() {
        List<String> folders = new java.util.ArrayList<>();
        folders.add(localDir.get());
        if (counts.get() != null) {
            folders.add(counts.get().context().checkpointDirectory());
        }
        for (String folder : folders) {
            try {
                if (folder != null && Files.exists(Path.of(folder))) {
                    CheckpointBytes.deleteRecursively(Path.of(folder));
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                System.err.println(id + ": could not delete " + folder + ": " + e);
            }
        }
    }

    /** Checks every record was counted once, then the figures. */
    Measurement measurement(List<Long> times, Footprint f) {
        if (f.countSum() != shape.records()) {
            throw new IllegalStateException(String.format(Locale.ROOT, "%s: the final state counts %,d records over "
                    + "%,d keys, the input had %,d", id, f.countSum(), f.keys(), shape.records()));
        }
        List<Long> fill = times.subList(0, shape.fillBatches());
        List<Long> steady = times.subList(shape.fillBatches(), times.size());
        double fillMs = BatchTimes.median(fill);
        double perKey = Math.max(f.keys(), 1);
        String detail = String.format(Locale.ROOT, "%,d keys: filling %,.0f k records/s (median %.0f ms per batch of "
                + "%,d new keys; first %d ms, last %d ms), full %,.0f ms per batch (median of %d batches of %,d "
                + "records), %.1f bytes/key on disk (RocksDB), %.1f bytes/key in checkpoints", f.keys(),
                shape.keysPerBatch() / fillMs, fillMs, shape.keysPerBatch(), fill.get(0), fill.get(fill.size() - 1),
                BatchTimes.median(steady), steady.size(), shape.keysPerBatch(), f.rocksDbBytes() / perKey,
                f.checkpointBytes() / perKey);
        return new Measurement(f.keys() / (double) shape.keys(), "-", detail);
    }

    /** RocksDB's files (tables, write-ahead logs, blobs, manifests) anywhere under {@code dir}. */
    static long rocksDbBytes(Path dir) throws IOException {
        return bytesUnder(dir, name -> name.endsWith(".sst") || name.endsWith(".log") || name.endsWith(".blob")
                || name.startsWith("MANIFEST-"));
    }

    static long bytesUnder(Path dir) throws IOException {
        return bytesUnder(dir, name -> true);
    }

    /**
     * The bytes of the files under {@code dir} whose name {@code counted} accepts. The context still runs (its
     * state is read first), so a file it deletes meanwhile (an old checkpoint, a shuffle file) is skipped.
     */
    private static long bytesUnder(Path dir, Predicate<String> counted) throws IOException {
        long[] bytes = {0};
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (attributes.isRegularFile() && counted.test(file.getFileName().toString())) {
                    bytes[0] += attributes.size();
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
        return bytes[0];
    }
}
