package io.sluice.dstream.internal.recovery;

import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.OutputOperation;
import io.sluice.dstream.internal.state.StatefulOperator;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.StateCheckpoint;
import io.sluice.recovery.internal.StateFile;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.checkpoint.StateCheckpointing;
import io.sluice.state.internal.checkpoint.StatePrefetch;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Connects one stateful operator to its {@link StateCheckpointing}: at the operator's checkpoint times (every
 * ten slides by default) the checkpoint is planned when the batch is generated, the operator computes the next
 * batch's state from the planned state (its lineage cut), and the batch runs one more job after its outputs,
 * which writes the files.
 */
final class StateCheckpointer<K, S> implements StateCheckpoints {
    private final StatefulOperator<K, ?, S, ?, ?> op;
    private final StateCheckpointing<K, S> checkpoints;

    StateCheckpointer(StatefulOperator<K, ?, S, ?, ?> op, String root, FileSystem fs,
            Broadcast<SerializableConfiguration> conf) {
        this.op = op;
        this.checkpoints = new StateCheckpointing<>(op.graph().sparkContext().sc(), root, fs, conf, op.stableId(),
                op.kind(), op.describe(), op.partitioner());
        op.cutLineageByRecovery();
        new OutputOperation<>(new CheckpointTimes(), "checkpointState", checkpoints::write);
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
     * After a restart: the next batch's state starts from the checkpoint's files, read in parallel (or taken
     * from what {@code prefetch} decoded ahead). Returns the chain of files each partition is restored from.
     */
    List<List<StateFile>> restore(StateCheckpoint state, StatePrefetch prefetch) {
        StateCheckpointing.Restored<K, S> restored =
                checkpoints.restore(state, state.time().plus(op.slide()), prefetch);
        op.restoreFrom(state.time(), restored.versions());
        return restored.chains();
    }

    /** Plans the checkpoint of {@code time} and cuts the lineage there; on the event loop, at generation. */
    private Optional<JavaRDD<StateVersion<K, S>>> planAndCut(Time time) {
        Optional<? extends JavaRDD<?>> state = op.stateRecords(time);
        if (state.isEmpty()) {
            return Optional.empty();
        }
        op.restoreFrom(time, checkpoints.plan(time, state.get().rdd()));
        return op.stateVersions(time);
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
