package io.sluice.state.internal;

import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.Time;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.util.AccumulatorV2;

/**
 * The figures of one stateful operator's state partitions, reported by the tasks that compute them: per (batch
 * time, partition) the keys after the batch, an estimate of the state's bytes in memory and its bytes on local
 * disk (RocksDB), and the keys that timed out. An
 * entry is a partition's figures, not an increment: a retried task or a recomputed partition overwrites what
 * the same partition reported before (last write wins), so nothing is ever counted twice. A task adds one entry
 * per partition it computes, never one per record.
 *
 * <p>On the driver, Spark merges the tasks' entries in as they succeed; the engine {@link #take}s a batch's
 * figures when the batch completes and {@link #forgetThrough drops} those of batches it no longer keeps (a
 * partition recomputed after its batch completed reports again, and is dropped then).
 */
public final class StateFiguresAccumulator extends AccumulatorV2<StateFiguresAccumulator.PartitionFigures,
        Map<Long, Map<Integer, StateFiguresAccumulator.PartitionFigures>>> {
    private static final long serialVersionUID = 1L;

    /** What one task reports: one state partition after one batch. */
    public record PartitionFigures(long batchTime, int partition, long keys, long bytes, long diskBytes,
            long timedOut) implements Serializable {
        /** The figures of {@code version}, partition {@code partition} of the state after {@code batchTime}. */
        public static PartitionFigures of(long batchTime, int partition, StateVersion<?, ?> version) {
            return new PartitionFigures(batchTime, partition, version.size(), version.estimatedBytes(),
                    version.diskBytes(), version.timedOut());
        }
    }

    /** A batch's figures summed over the partitions that reported them. */
    public record Totals(long keys, long bytes, long diskBytes, long timedOut, int partitions) {
    }

    /** By batch time, then partition; guarded by this (Spark merges on its scheduler's thread). */
    private final BatchTimeMap<Map<Integer, PartitionFigures>> entries = new BatchTimeMap<>();

    @Override
    public synchronized boolean isZero() {
        return entries.isEmpty();
    }

    @Override
    public synchronized StateFiguresAccumulator copy() {
        StateFiguresAccumulator copy = new StateFiguresAccumulator();
        entries.forEach((t, partitions) -> copy.entries.put(t, new HashMap<>(partitions)));
        return copy;
    }

    @Override
    public synchronized void reset() {
        entries.clear();
    }

    @Override
    public synchronized void add(PartitionFigures figures) {
        entries.computeIfAbsent(new Time(figures.batchTime()), t -> new HashMap<>()).put(figures.partition(), figures);
    }

    @Override
    public void merge(AccumulatorV2<PartitionFigures, Map<Long, Map<Integer, PartitionFigures>>> other) {
        Map<Long, Map<Integer, PartitionFigures>> theirs = other.value(); // a copy: no two locks held at once
        synchronized (this) {
            theirs.forEach((t, partitions) -> entries.computeIfAbsent(new Time(t), k -> new HashMap<>())
                    .putAll(partitions));
        }
    }

    /** A copy of every entry held. */
    @Override
    public synchronized Map<Long, Map<Integer, PartitionFigures>> value() {
        Map<Long, Map<Integer, PartitionFigures>> copy = new TreeMap<>();
        entries.forEach((t, partitions) -> copy.put(t.milliseconds(), Map.copyOf(partitions)));
        return copy;
    }

    /** Removes and sums the figures of batch {@code batchTime}; empty when no partition reported any. */
    public synchronized Optional<Totals> take(long batchTime) {
        Map<Integer, PartitionFigures> partitions = entries.remove(new Time(batchTime)).orElse(null);
        if (partitions == null || partitions.isEmpty()) {
            return Optional.empty();
        }
        long keys = 0;
        long bytes = 0;
        long diskBytes = 0;
        long timedOut = 0;
        for (PartitionFigures f : partitions.values()) {
            keys += f.keys();
            bytes += f.bytes();
            diskBytes += f.diskBytes();
            timedOut += f.timedOut();
        }
        return Optional.of(new Totals(keys, bytes, diskBytes, timedOut, partitions.size()));
    }

    /** Drops the figures of every batch at or before {@code batchTime}. */
    public synchronized void forgetThrough(long batchTime) {
        entries.forgetThrough(new Time(batchTime));
    }
}
