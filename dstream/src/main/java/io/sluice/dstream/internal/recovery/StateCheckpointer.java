package io.sluice.dstream.internal.recovery;

import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.OutputOperation;
import io.sluice.dstream.internal.state.StatefulOperator;
import io.sluice.rdd.internal.JobTags;
import io.sluice.rdd.Time;
import io.sluice.recovery.CheckpointStore;
import io.sluice.recovery.StateCheckpoint;
import io.sluice.recovery.StateFile;
import io.sluice.recovery.state.RestoredStateRDD;
import io.sluice.recovery.state.StateCheckpointJob;
import io.sluice.state.internal.MapWithStateBatch;
import io.sluice.state.internal.StateVersion;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import scala.reflect.ClassTag$;

/**
 * Checkpoints one stateful operator's state at its checkpoint times (every ten slides by default), and makes
 * those checkpoints its lineage cuts.
 *
 * <p>At a checkpoint time t, when the batch is generated, the state of t is planned as a full snapshot or a
 * delta per partition (a delta when the partition's chain since its last snapshot is short and smaller than
 * the snapshot), and the operator is told to compute the next batch's state from a {@link RestoredStateRDD}
 * of t, which takes each partition from the cached state of t or, once that is gone, from the files. The
 * batch runs one more job after its outputs, which writes the files, one task per partition. The batch after
 * t runs only after that job (batches run in order), so the files it may need exist.
 */
final class StateCheckpointer<K, S> implements StateCheckpoints {
    /** A restore reads at most a snapshot and this many deltas per partition. */
    static final int MAX_DELTAS = 9;
    private static final int KEPT = 4;

    private final StatefulOperator<K, ?, S, ?, ?> op;
    private final String root;
    private final FileSystem fs;
    private final Broadcast<SerializableConfiguration> conf;
    private final NavigableMap<Time, StateCheckpoint> complete = new ConcurrentSkipListMap<>();
    private final Map<Time, Plan> plans = new ConcurrentHashMap<>();

    /** What the checkpoint of one batch builds on: the last complete checkpoint, and per partition its base. */
    private record Plan(StateCheckpoint base, List<Long> deltaSince) {
    }

    StateCheckpointer(StatefulOperator<K, ?, S, ?, ?> op, String root, FileSystem fs,
            Broadcast<SerializableConfiguration> conf) {
        this.op = op;
        this.root = root;
        this.fs = fs;
        this.conf = conf;
        op.cutLineageByRecovery();
        new OutputOperation<>(new CheckpointTimes(), "checkpointState", (versions, time) -> write(versions, time));
    }

    @Override
    public Operator<?> operator() {
        return op;
    }

    @Override
    public Optional<StateCheckpoint> latestAsOf(Time time) {
        Map.Entry<Time, StateCheckpoint> e = complete.floorEntry(time);
        return e == null ? Optional.empty() : Optional.of(e.getValue());
    }

    /**
     * After a restart: the next batch's state starts from the checkpoint's files, read in parallel. Returns the
     * chain of files each partition is restored from.
     */
    List<List<StateFile>> restore(StateCheckpoint state) {
        int partitions = op.partitioner().numPartitions();
        int keyGroups = op.partitioner().keyGroups().count();
        if (state.partitions() != partitions || state.keyGroups() != keyGroups) {
            throw new IllegalStateException("The checkpointed state of " + op.describe() + " has " + state.partitions()
                    + " partitions over " + state.keyGroups() + " key groups, but the operator now has "
                    + partitions + " over " + keyGroups + ": keep its number of partitions (re-partitioning "
                    + "checkpointed state is not supported yet)");
        }
        List<List<StateFile>> chains = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            chains.add(state.chainOf(p));
        }
        JavaRDD<StateVersion<K, S>> versions = versions(new RestoredStateRDD<>(sc(), root, conf, op.stableId(),
                op.describe(), state.time(), chains, false, null, StateCheckpointer::versionOf));
        versions.setName(op.describe() + " state restored @ " + state.time().milliseconds());
        versions.persist(StorageLevel.MEMORY_ONLY());
        op.restoreFrom(state.time(), versions);
        complete.put(state.time(), state);
        readAhead(versions, state.time());
        return chains;
    }

    /**
     * Starts reading the restored state now, in a job of its own, instead of in the first batch's job: the
     * files are read while that batch is generated and its input computed, and the batch finds the state
     * cached (a task that needs a partition still being read waits for it rather than reading it twice).
     */
    private void readAhead(JavaRDD<StateVersion<K, S>> versions, Time time) {
        Time next = time.plus(op.slide());
        JobTags.tagged(sc(), next.milliseconds(), "reading the state of " + op.describe() + " checkpointed at batch "
                + time + " (before batch " + next + ")", () -> versions.foreachPartitionAsync(partition -> {
                }));
    }

    private org.apache.spark.SparkContext sc() {
        return op.graph().sparkContext().sc();
    }

    private static <K, S> JavaRDD<StateVersion<K, S>> versions(RestoredStateRDD<K, S> rdd) {
        return new JavaRDD<>(rdd, ClassTag$.MODULE$.apply(StateVersion.class));
    }

    @SuppressWarnings("unchecked")
    private static <K, S> StateVersion<K, S> versionOf(Object record) {
        if (record instanceof StateVersion<?, ?> v) {
            return (StateVersion<K, S>) v;
        }
        if (record instanceof MapWithStateBatch<?, ?, ?> b) {
            return (StateVersion<K, S>) b.state();
        }
        throw new IllegalStateException("unexpected state record " + record.getClass().getName());
    }

    /** Plans the checkpoint of {@code time} and cuts the lineage there; on the event loop, at generation. */
    private Optional<JavaRDD<StateVersion<K, S>>> planAndCut(Time time) {
        Optional<? extends JavaRDD<?>> state = op.stateRecords(time);
        if (state.isEmpty()) {
            return Optional.empty();
        }
        Plan plan = plan();
        plans.put(time, plan);
        List<List<StateFile>> chains = new ArrayList<>();
        for (int p = 0; p < op.partitioner().numPartitions(); p++) {
            chains.add(plan.base == null ? List.of() : plan.base.chainOf(p));
        }
        op.restoreFrom(time, versions(new RestoredStateRDD<>(sc(), root, conf, op.stableId(), op.describe(), time,
                chains, true, state.get().rdd(), StateCheckpointer::versionOf)));
        return op.stateVersions(time);
    }

    private Plan plan() {
        Map.Entry<Time, StateCheckpoint> last = complete.lastEntry();
        List<Long> since = new ArrayList<>();
        for (int p = 0; p < op.partitioner().numPartitions(); p++) {
            Long s = null;
            if (last != null) {
                List<StateFile> chain = last.getValue().chainOf(p);
                long deltaBytes = 0;
                for (StateFile f : chain.subList(1, chain.size())) {
                    deltaBytes += f.length();
                }
                if (chain.size() - 1 < MAX_DELTAS && deltaBytes <= chain.get(0).length()) {
                    s = last.getKey().milliseconds();
                }
            }
            since.add(s);
        }
        return new Plan(last == null ? null : last.getValue(), since);
    }

    /** The batch's checkpoint job: writes every partition's file, then records the new chain. */
    private void write(JavaRDD<StateVersion<K, S>> versions, Time time) throws IOException {
        Plan plan = plans.remove(time);
        if (plan == null) {
            throw new IllegalStateException("no checkpoint plan for " + op.describe() + " at " + time);
        }
        for (boolean full : new boolean[] {true, false}) { // files an earlier run wrote for this batch
            fs.delete(new Path(root, CheckpointStore.stateFilePath(op.stableId(), time, full, 0)).getParent(), true);
        }
        List<StateFile> written = StateCheckpointJob.write(versions, root, conf, op.stableId(), time, plan.deltaSince);
        List<StateFile> files = new ArrayList<>();
        for (StateFile f : written) {
            if (!f.full()) {
                files.addAll(plan.base.chainOf(f.partition()));
            }
            files.add(f);
        }
        complete.put(time, new StateCheckpoint(op.stableId(), op.kind(), time, op.partitioner().numPartitions(),
                op.partitioner().keyGroups().count(), files));
        while (complete.size() > KEPT) {
            complete.pollFirstEntry();
        }
    }

    /** An operator with an RDD only at the stateful operator's checkpoint times: the state to write. */
    private final class CheckpointTimes extends Operator<StateVersion<K, S>> {
        CheckpointTimes() {
            super(op.graph(), "checkpointState", List.of(op), List.of());
        }

        @Override
        public Duration slide() {
            return op.stateCheckpointInterval();
        }

        @Override
        protected Optional<JavaRDD<StateVersion<K, S>>> compute(Time time) {
            return planAndCut(time);
        }
    }
}
