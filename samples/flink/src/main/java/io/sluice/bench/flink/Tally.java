package io.sluice.bench.flink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one run's sink subtasks saw, merged: emitted records per input batch, how many emitted counts were 1 (one
 * per distinct key) and the sum of all emitted counts (each key with n records emits 1..n, in any order). The local
 * MiniCluster runs its tasks in this JVM, so the sink's writers hand their totals over through this registry.
 */
final class Tally {
    private static final Map<String, Tally> RUNS = new ConcurrentHashMap<>();

    private final long[] recordsPerBatch;
    private long keys;
    private long countSum;
    private long firstOpenNanos = Long.MAX_VALUE;
    private long lastFlushNanos;
    private int flushedWriters;
    private final java.util.Set<String> stateClasses = new java.util.TreeSet<>();

    private Tally(int batches) {
        this.recordsPerBatch = new long[batches];
    }

    static void open(String run, int batches) {
        if (RUNS.putIfAbsent(run, new Tally(batches)) != null) {
            throw new IllegalStateException("run " + run + " is already open");
        }
    }

    static Tally of(String run) {
        Tally t = RUNS.get(run);
        if (t == null) {
            throw new IllegalStateException("no open run " + run);
        }
        return t;
    }

    static Tally close(String run) {
        return RUNS.remove(run);
    }

    /** A source subtask is about to emit its first record. */
    synchronized void sourceOpened(long nanos) {
        firstOpenNanos = Math.min(firstOpenNanos, nanos);
    }

    /** The class of the keyed state a counting subtask got: says which backend really held the state. */
    synchronized void stateOpened(String stateClass) {
        stateClasses.add(stateClass);
    }

    synchronized String stateClasses() {
        return String.join(", ", stateClasses);
    }

    /** A sink writer reached the end of its input. */
    synchronized void writerFinished(long[] records, long ones, long sum, long nanos) {
        for (int b = 0; b < records.length; b++) {
            recordsPerBatch[b] += records[b];
        }
        keys += ones;
        countSum += sum;
        lastFlushNanos = Math.max(lastFlushNanos, nanos);
        flushedWriters++;
    }

    synchronized int flushedWriters() {
        return flushedWriters;
    }

    /** From the first source subtask's start to the last sink writer's end of input. */
    synchronized long processingNanos() {
        return lastFlushNanos - firstOpenNanos;
    }

    /** The run's output as the benchmark compares it with Sluice's (samples' RunningCountCheck, same text). */
    synchronized String check() {
        List<String> counts = new ArrayList<>();
        for (long r : recordsPerBatch) {
            counts.add(Long.toString(r));
        }
        return "records per batch " + String.join(" ", counts) + ", keys " + keys + ", sum of running counts "
                + countSum;
    }
}
