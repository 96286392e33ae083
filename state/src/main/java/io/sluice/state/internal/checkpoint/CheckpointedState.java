package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.JobTags;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.OperatorRecord;
import io.sluice.state.internal.HeapBackend;
import io.sluice.state.internal.MapWithStateBatch;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.StateVersion;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import scala.reflect.ClassTag$;

/**
 * The lifecycle of a state with a checkpoint directory: restores the state a restart recovered ({@link #open}),
 * plans each checkpoint (per partition a full snapshot, a delta, or a RocksDB manifest and its new table files),
 * writes it, remembers the complete ones, and keeps the restored and planned states the next batches start from.
 *
 * <p>At a checkpoint time t, {@link #batchGenerated} decides per partition: a delta when the partition's chain since its
 * last snapshot is short and smaller than the snapshot. It keeps the state of t as a {@link RestoredStateRDD},
 * which takes each partition from the cached state of t or, once that is gone, from the files: the next batch's
 * state is computed from it (the lineage cut). {@link #writeCheckpoint} is the batch's checkpoint job: it writes the
 * files, one task per partition, and records the new chain. The batch after t runs only after that job
 * (batches run in order), so the files it may need exist.
 *
 * <p>Each checkpoint is in the layout of its batch's state. When the number of partitions changed since the
 * last complete checkpoint (the state was re-partitioned), every partition is written as a snapshot; a restore
 * reads the state in the layout it was saved in, and the operator moves it to its own at the first batch.
 */
public final class CheckpointedState<K, S> implements StateLifecycle<K, S> {
    /** A restore reads at most a snapshot and this many deltas per partition. */
    static final int MAX_DELTAS = 9;
    private static final int KEPT = 4;

    private final SparkContext sc;
    private final String root;
    private final FileSystem fs;
    private final Broadcast<SerializableConfiguration> conf;
    private final StatePrefetch prefetch;
    private final String operatorId;
    private final String kind;
    private final String name;
    private final KeyGroupPartitioner partitioner;
    private final StateBackend backend;
    private final NavigableMap<Time, SavedState> complete = new ConcurrentSkipListMap<>();
    private final Map<Time, Plan> plans = new ConcurrentHashMap<>();
    private final StartingStates<K, S> starts = new StartingStates<>();

    /**
     * What the checkpoint of one batch builds on: the last complete checkpoint in the same layout, and per
     * partition its base.
     */
    private record Plan(int partitions, SavedState base, List<Long> deltaSince, SavedState tablesFrom) {
        /**
         * This plan as its write starts: it may name the RocksDB table files of {@code newest}, the newest
         * complete checkpoint in its layout then (newer than its base when the batch was generated ahead).
         */
        Plan writing(SavedState newest) {
            return new Plan(partitions, base, deltaSince, newest);
        }

        /** Per partition, the table files (path to length) the write may name instead of uploading them. */
        List<HashMap<String, Long>> reusableTables() {
            List<HashMap<String, Long>> tables = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                HashMap<String, Long> reusable = new HashMap<>();
                for (StateFile f : tablesFrom == null ? List.<StateFile>of() : tablesFrom.filesOf(p)) {
                    if (f.kind() == StateFile.Kind.TABLE) {
                        reusable.put(f.path(), f.length());
                    }
                }
                tables.add(reusable);
            }
            return tables;
        }
    }

    /**
     * @param operatorId the operator's stable id (it names the state's files)
     * @param kind       the operator's kind (the state's encoding)
     * @param name       the operator as messages and Spark's UI name it
     * @param backend    the backend restored state is loaded into
     */
    public CheckpointedState(CheckpointSite site, String operatorId, String kind, String name,
            KeyGroupPartitioner partitioner, StateBackend backend) {
        this.sc = site.sc();
        this.root = site.root();
        this.fs = site.fs();
        this.conf = site.conf();
        this.prefetch = site.prefetch();
        this.operatorId = operatorId;
        this.kind = kind;
        this.name = name;
        this.partitioner = partitioner;
        this.backend = backend;
    }

    /**
     * The lifecycle of the state of operator {@code operatorId}, checkpointed in {@code site}: restored from the
     * checkpoint a restart {@code recovered} if it saved this operator's state (of this kind), its reading started
     * for the batch one {@code slide} after it; else starting empty (or from its initial RDD).
     */
    public static <K, S> CheckpointedState<K, S> open(CheckpointSite site, String operatorId, String kind,
            String name, KeyGroupPartitioner partitioner, StateBackend backend, Optional<Checkpoint> recovered,
            Duration slide) {
        CheckpointedState<K, S> state = new CheckpointedState<>(site, operatorId, kind, name, partitioner, backend);
        recovered.flatMap(c -> SavedState.of(c, operatorId)).filter(s -> s.kind().equals(kind))
                .ifPresent(s -> state.restore(s, s.time().plus(slide)));
        return state;
    }

    @Override
    public Optional<Saved> savedAsOf(Time time) {
        Map.Entry<Time, SavedState> e = complete.floorEntry(time);
        return e == null ? Optional.empty() : Optional.of(new Saved(e.getKey(), e.getValue().toRecord()));
    }

    /**
     * The state checkpoints whose files the coming checkpoints build on although no progress checkpoint may
     * reference them: the base of each checkpoint planned but not yet complete. A plan is made when its batch
     * is generated, which may be long before it runs (a job behind its batches), so its base can be older than
     * checkpoints completed since. (A plan made later builds on the newest complete checkpoint, which the
     * newest progress checkpoint references, or which belongs to a batch after it.) A write being run may also
     * name the RocksDB table files of the newest complete checkpoint when it started: that one is in use too.
     */
    @Override
    public List<OperatorRecord> inUse() {
        List<OperatorRecord> inUse = new ArrayList<>();
        for (Plan plan : plans.values()) {
            for (SavedState used : new SavedState[] {plan.base, plan.tablesFrom}) {
                if (used != null) {
                    inUse.add(used.toRecord());
                }
            }
        }
        return inUse;
    }

    /**
     * After a restart: the state of {@code state.time()}, read from the checkpoint's files in parallel (or, in
     * the driver's JVM, taken from what the restart's prefetch decoded ahead, which keeps these chains), persisted
     * and already being read (in a job of its own, tagged as part of batch {@code next}).
     */
    public JavaRDD<StateVersion<K, S>> restore(SavedState state, Time next) {
        int keyGroups = partitioner.keyGroups().count();
        if (state.keyGroups() != keyGroups) {
            throw new IllegalStateException("The checkpointed state of " + name + " is split in "
                    + state.keyGroups() + " key groups, but the operator now in " + keyGroups + " (the key groups "
                    + "are max(" + io.sluice.rdd.KeyGroups.DEFAULT_COUNT + ", partitions)): choose at most "
                    + state.keyGroups() + " partitions to keep its state");
        }
        List<List<StateFile>> chains = new ArrayList<>();
        for (int p = 0; p < state.partitions(); p++) {
            chains.add(state.chainOf(p));
        }
        JavaRDD<StateVersion<K, S>> versions = versions(new RestoredStateRDD<>(sc, root, conf, operatorId, name,
                state.time(), chains, false, null, CheckpointedState::versionOf, backend,
                backend == HeapBackend.INSTANCE ? prefetch.lendTo(sc) : null));
        versions.setName(name + " state restored @ " + state.time().milliseconds());
        versions.persist(StorageLevel.MEMORY_ONLY());
        prefetch.claim(root, chains);
        complete.put(state.time(), state);
        starts.put(state.time(), versions);
        readAhead(versions, state.time(), next);
        return versions;
    }

    /**
     * Starts reading the restored state now, in a job of its own, instead of in the first batch's job: the
     * files are read while that batch is generated and its input computed, and the batch finds the state
     * cached (a task that needs a partition still being read waits for it rather than reading it twice).
     */
    private void readAhead(JavaRDD<StateVersion<K, S>> versions, Time time, Time next) {
        JobTags.tagged(sc, next.milliseconds(), "reading the state of " + name + " checkpointed at batch "
                + time + " (before batch " + next + ")", () -> versions.foreachPartitionAsync(partition -> {
                }));
    }

    @Override
    public boolean plansCheckpoints() {
        return true;
    }

    /**
     * Plans the checkpoint of {@code time}, whose state RDD is {@code cached}; on the event loop, when the batch
     * is generated. The next batch's state is computed from the state of {@code time} this makes
     * ({@link #startAfter}).
     */
    @Override
    public void batchGenerated(Time time, RDD<?> cached) {
        Plan plan = plan(cached.getNumPartitions());
        plans.put(time, plan);
        List<List<StateFile>> chains = new ArrayList<>();
        for (int p = 0; p < plan.partitions; p++) {
            chains.add(plan.base == null ? List.of() : plan.base.chainOf(p));
        }
        starts.put(time, versions(new RestoredStateRDD<>(sc, root, conf, operatorId, name, time, chains, true,
                cached, CheckpointedState::versionOf, backend, null)));
    }

    @Override
    public Optional<JavaRDD<StateVersion<K, S>>> startAfter(Time time) {
        return starts.after(time);
    }

    @Override
    public void forgetThrough(Time oldestKept) {
        starts.forgetThrough(oldestKept);
    }

    private Plan plan(int partitions) {
        Map.Entry<Time, SavedState> last = complete.lastEntry();
        if (last != null && last.getValue().partitions() != partitions) {
            last = null; // re-partitioned since: no partition has a chain to add a delta to
        }
        List<Long> since = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            Long s = null;
            if (last != null) {
                long fullBytes = 0; // the snapshot, or a RocksDB manifest and its tables
                long deltaBytes = 0;
                for (StateFile f : last.getValue().filesOf(p)) {
                    if (f.kind() == StateFile.Kind.DELTA) {
                        deltaBytes += f.length();
                    } else {
                        fullBytes += f.length();
                    }
                }
                List<StateFile> chain = last.getValue().chainOf(p);
                if (chain.size() - 1 < MAX_DELTAS && deltaBytes <= fullBytes) {
                    s = last.getKey().milliseconds();
                }
            }
            since.add(s);
        }
        SavedState base = last == null ? null : last.getValue();
        return new Plan(partitions, base, since, base);
    }

    /**
     * The checkpoint job of batch {@code time}: writes every partition's files, then records the new chain.
     * Returns what it wrote now (per partition a snapshot, a delta, or a RocksDB manifest and the tables not
     * uploaded before), for the batch's figures.
     */
    @Override
    public Written writeCheckpoint(JavaRDD<StateVersion<K, S>> versions, Time time) throws IOException {
        Plan planned = plans.get(time);
        if (planned == null) {
            throw new IllegalStateException("no checkpoint plan for " + name + " at " + time);
        }
        Map.Entry<Time, SavedState> newest = complete.lastEntry();
        Plan plan = newest == null || newest.getValue().partitions() != planned.partitions ? planned
                : planned.writing(newest.getValue());
        plans.put(time, plan); // in use from now: the files of the checkpoint whose tables it names stay
        try {
            for (boolean full : new boolean[] {true, false}) { // files an earlier run wrote for this batch
                fs.delete(new Path(root, StateFile.pathOf(operatorId, time, full, 0)).getParent(),
                        true);
            }
            List<StateFile> needed = CheckpointWriteJob.write(versions, root, conf, operatorId, time,
                    plan.deltaSince, plan.reusableTables());
            List<StateFile> files = new ArrayList<>();
            int full = 0;
            int deltas = 0;
            long bytes = 0;
            for (StateFile f : needed) {
                if (f.kind() == StateFile.Kind.DELTA) {
                    files.addAll(plan.base.filesOf(f.partition()));
                }
                files.add(f);
                full += f.kind() == StateFile.Kind.FULL ? 1 : 0;
                deltas += f.kind() == StateFile.Kind.DELTA ? 1 : 0;
                bytes += f.time().equals(time) ? f.length() : 0; // a table uploaded earlier is only named
            }
            complete.put(time, new SavedState(operatorId, kind, time, plan.partitions,
                    partitioner.keyGroups().count(), files));
            while (complete.size() > KEPT) {
                complete.pollFirstEntry();
            }
            return new Written(full, deltas, bytes);
        } finally {
            plans.remove(time); // only now: until the new chain is complete, the plan keeps its base in use
        }
    }

    private static <K, S> JavaRDD<StateVersion<K, S>> versions(RestoredStateRDD<K, S> rdd) {
        return new JavaRDD<>(rdd, ClassTag$.MODULE$.apply(StateVersion.class));
    }

    @SuppressWarnings("unchecked")
    static <K, S> StateVersion<K, S> versionOf(Object record) {
        if (record instanceof StateVersion<?, ?> v) {
            return (StateVersion<K, S>) v;
        }
        if (record instanceof MapWithStateBatch<?, ?, ?> b) {
            return (StateVersion<K, S>) b.state();
        }
        throw new IllegalStateException("unexpected state record " + record.getClass().getName());
    }
}
