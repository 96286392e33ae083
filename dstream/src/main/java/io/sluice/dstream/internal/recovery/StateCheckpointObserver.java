package io.sluice.dstream.internal.recovery;

import io.sluice.dstream.StreamingException;
import io.sluice.dstream.internal.CallSite;
import io.sluice.dstream.internal.Job;
import io.sluice.dstream.internal.OperatorException;
import io.sluice.dstream.internal.scheduler.BatchScheduler;
import io.sluice.dstream.internal.state.StatefulOperator;
import io.sluice.dstream.scheduler.StateCheckpointInfo;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.JobTags;
import io.sluice.recovery.internal.OperatorRecord;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.checkpoint.StateLifecycle;
import java.util.List;
import java.util.Optional;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaRDD;

/**
 * Sequences one stateful operator's state checkpoints, observing the batches: at the operator's checkpoint times
 * (every ten slides by default) the operator's state lifecycle plans the checkpoint as the batch's state is
 * computed (see {@link CheckpointedStart}), and the batch runs one more job after its outputs, in which the
 * lifecycle writes the files; the operator is told what it wrote and how long it took.
 */
final class StateCheckpointObserver<K, S> implements BatchScheduler.BatchObserver {
    private static final String KIND = "checkpointState";

    private final StatefulOperator<K, ?, S, ?, ?> op;
    private final StateLifecycle<K, S> lifecycle;
    private final int jobId;
    private final String callSite = CallSite.of(KIND);

    /** @param jobId the id listeners see for the checkpoint job (after the output operations' ids) */
    StateCheckpointObserver(StatefulOperator<K, ?, S, ?, ?> op, StateLifecycle<K, S> lifecycle, int jobId) {
        this.op = op;
        this.lifecycle = lifecycle;
        this.jobId = jobId;
    }

    /**
     * The newest state checkpoint at or before {@code time} whose files are complete, if any; the progress
     * writer asks on the scheduler's event loop when batch {@code time} is recorded as done.
     */
    Optional<StateLifecycle.Saved> savedAsOf(Time time) {
        return lifecycle.savedAsOf(time);
    }

    /** The records of state checkpoints later ones may build on, whose files must stay (see the checkpoint store). */
    List<OperatorRecord> inUse() {
        return lifecycle.inUse();
    }

    /** At a checkpoint time: the state of the batch (planned as it is computed), and the job writing it. */
    @Override
    public List<Job> jobs(Time time) {
        if (!op.isStateCheckpointTime(time)) {
            return List.of();
        }
        var sc = op.context().sparkContext().sc();
        JobTags.tag(sc, time.milliseconds(), callSite); // jobs run computing the state belong to this one
        Optional<JavaRDD<StateVersion<K, S>>> versions;
        try {
            versions = op.stateVersions(time);
        } finally {
            JobTags.clear(sc);
        }
        versions.ifPresent(v -> v.setName(callSite + " @ " + time.milliseconds()));
        return versions.map(v -> List.of(new Job(time, jobId, KIND, callSite, () -> {
            try {
                // Wall time, not the context's clock: a manual or replay clock stands still during a batch.
                long started = System.nanoTime();
                StateLifecycle.Written written = lifecycle.writeCheckpoint(v, time);
                long millis = (System.nanoTime() - started) / 1_000_000;
                op.checkpointWritten(time, new StateCheckpointInfo(written.fullPartitions(),
                        written.deltaPartitions(), written.bytes(), millis));
            } catch (OperatorException e) {
                throw e;
            } catch (Exception e) {
                if (e instanceof SparkException) { // the writing job failed: thrown as Spark Streaming would
                    throw new OperatorException(callSite, time, e);
                }
                // the engine's own failure on the driver (the checkpoint's file system), not the user's: thrown at
                // awaitTermination as a StreamingException that names the operator and the batch
                throw new OperatorException(callSite, time, new StreamingException("cannot write the state "
                        + "checkpoint of " + op.describe() + ": " + e.getMessage(), e));
            }
        }))).orElse(List.of());
    }
}
