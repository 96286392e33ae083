package io.sluice.dstream.internal.recovery;

import io.sluice.dstream.internal.CallSite;
import io.sluice.dstream.internal.Job;
import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.OperatorException;
import io.sluice.dstream.internal.scheduler.BatchScheduler;
import io.sluice.dstream.internal.state.StatefulOperator;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.JobTags;
import io.sluice.recovery.internal.StateCheckpoint;
import io.sluice.recovery.internal.StateFile;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.checkpoint.StateCheckpointing;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Connects one stateful operator to its {@link StateCheckpointing}, observing the batches: at the operator's
 * checkpoint times (every ten slides by default) the checkpoint is planned when the batch is generated, the
 * operator computes the next batch's state from the planned state (its lineage cut), and the batch runs one
 * more job after its outputs, which writes the files.
 */
final class StateCheckpointer<K, S> implements StateCheckpoints, BatchScheduler.BatchObserver {
    private static final String KIND = "checkpointState";

    private final StatefulOperator<K, ?, S, ?, ?> op;
    private final StateCheckpointing<K, S> checkpoints;
    private final int jobId;
    private final String callSite = CallSite.of(KIND);

    /** @param jobId the id listeners see for the checkpoint job (after the output operations' ids) */
    StateCheckpointer(StatefulOperator<K, ?, S, ?, ?> op, String root, FileSystem fs,
            Broadcast<SerializableConfiguration> conf, int jobId) {
        this.op = op;
        this.jobId = jobId;
        this.checkpoints = new StateCheckpointing<>(op.graph().sparkContext().sc(), root, fs, conf, op.stableId(),
                op.kind(), op.describe(), op.partitioner());
        op.cutLineageByRecovery();
    }

    @Override
    public Operator<?> operator() {
        return op;
    }

    @Override
    public Optional<StateCheckpoint> latestAsOf(Time time) {
        return checkpoints.latestAsOf(time);
    }

    /**
     * After a restart: the next batch's state starts from the checkpoint's files, read in parallel. Returns the
     * chain of files each partition is restored from.
     */
    List<List<StateFile>> restore(StateCheckpoint state) {
        StateCheckpointing.Restored<K, S> restored = checkpoints.restore(state, state.time().plus(op.slide()));
        op.restoreFrom(state.time(), restored.versions());
        return restored.chains();
    }

    /** At a checkpoint time: plans the checkpoint and cuts the lineage there, and adds the job writing it. */
    @Override
    public List<Job> jobs(Time time) {
        if (!op.isStateCheckpointTime(time)) {
            return List.of();
        }
        var sc = op.graph().sparkContext().sc();
        JobTags.tag(sc, time.milliseconds(), callSite); // jobs run computing the state belong to this one
        Optional<JavaRDD<StateVersion<K, S>>> versions;
        try {
            versions = planAndCut(time);
        } finally {
            JobTags.clear(sc);
        }
        versions.ifPresent(v -> v.setName(callSite + " @ " + time.milliseconds()));
        return versions.map(v -> List.of(new Job(time, jobId, KIND, callSite, () -> {
            try {
                checkpoints.write(v, time);
            } catch (OperatorException e) {
                throw e;
            } catch (Exception e) {
                throw new OperatorException(callSite, time, e);
            }
        }))).orElse(List.of());
    }

    private Optional<JavaRDD<StateVersion<K, S>>> planAndCut(Time time) {
        Optional<? extends JavaRDD<?>> state = op.stateRecords(time);
        if (state.isEmpty()) {
            return Optional.empty();
        }
        op.restoreFrom(time, checkpoints.plan(time, state.get().rdd()));
        return op.stateVersions(time);
    }
}
