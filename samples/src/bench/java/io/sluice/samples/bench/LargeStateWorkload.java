package io.sluice.samples.bench;

import java.time.Duration;
import java.util.List;

/**
 * W8 (issue #34 point 6): large state. A mapWithState running count fills {@code bench.w8.keys} distinct keys
 * (default 20,000,000; {@code bench.w8.keysPerBatch} new keys per batch, default 1,000,000), then runs 5 batches over
 * the full state, in a JVM with a 1 GB heap (local mode: the executors' heap), once on {@code rocksdb} state and once
 * on {@code heap}. The row's figure is rocksdb's keys in the final state / keys filled (1 when it ran to the end),
 * target 1; its cell gives rocksdb's figures and what became of heap, which is expected to fail ("heap: fails
 * (reason)"). Sluice against itself: no Spark Streaming side.
 */
final class LargeStateWorkload implements Workload {
    static final int STEADY_BATCHES = 5;

    /** Runs a step's Sluice side in a forked JVM for at most {@code limit} (the benchmark's fork). */
    interface StepFork {
        Forked run(Workload step, Duration limit) throws Exception;
    }

    private final LargeStateInput shape;
    private final LargeStateRun rocksDb;
    private final LargeStateRun heap;

    LargeStateWorkload(LargeStateInput shape) {
        this.shape = shape;
        this.rocksDb = new LargeStateRun("W8-rocksdb", "rocksdb", shape);
        this.heap = new LargeStateRun("W8-heap", "heap", shape);
    }

    private static final LargeStateInput STANDARD = new LargeStateInput(20_000_000, 1_000_000, STEADY_BATCHES);

    static LargeStateWorkload fromProperties() {
        int keys = Integer.getInteger("bench.w8.keys", STANDARD.keys());
        int perBatch = Integer.getInteger("bench.w8.keysPerBatch", STANDARD.keysPerBatch());
        // at most the keys, rounded up to the input's 4 partitions
        int keysPerBatch = Math.min(perBatch, (keys + 3) / 4 * 4);
        return new LargeStateWorkload(new LargeStateInput(keys, keysPerBatch, STEADY_BATCHES));
    }

    @Override
    public String id() {
        return "W8";
    }

    @Override
    public String description() {
        return String.format(java.util.Locale.ROOT, "large state: mapWithState running count filling %,d keys (%,d new"
                + " per batch, then %d batches over them), 1 GB heap, rocksdb and heap", shape.keys(),
                shape.keysPerBatch(), shape.steadyBatches());
    }

    @Override
    public Figure figure() {
        return LargeStateRun.KEYS_FILLED;
    }

    @Override
    public double target() {
        return 1.0;
    }

    @Override
    public boolean standard() {
        return shape.equals(STANDARD);
    }

    @Override
    public List<Workload> steps() {
        return List.of(rocksDb, heap);
    }

    /**
     * rocksdb first, then heap, which gets twice rocksdb's time (at least 5 minutes): a heap that thrashes in
     * garbage collection rather than failing outright fails by that limit.
     */
    Row measure(StepFork fork, BenchSettings settings) throws Exception {
        Forked r = fork.run(rocksDb, rocksDb.timeout(settings));
        String rocksDbCell = r.failure() == null ? "rocksdb: " + r.measurement().detail()
                : "rocksdb: fails (" + r.failure() + ")";
        System.out.println("W8 " + rocksDbCell + " (" + r.log() + ")");
        Duration heapLimit = Duration.ofSeconds(Math.max(300, 2 * (long) r.seconds()));
        Forked h = fork.run(heap, heapLimit);
        String heapCell = h.failure() == null ? "heap: runs to the end, " + h.measurement().detail()
                : "heap: fails (" + h.failure() + ")";
        System.out.println("W8 " + heapCell + " (" + h.log() + ")");
        double filled = r.failure() == null ? r.measurement().value() : 0;
        return new Row(this, new Measurement(filled, "-", rocksDbCell + "; " + heapCell), null);
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) {
        throw new UnsupportedOperationException("W8 is measured step by step, each step in its own JVM: run W8-rocksdb"
                + " and W8-heap instead");
    }
}
