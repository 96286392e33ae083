package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.OperatorRecord;
import io.sluice.state.internal.StateVersion;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;

/** The lifecycle of a state without a checkpoint directory: at most a restored state to start from. */
final class UncheckpointedState<K, S> implements StateLifecycle<K, S> {
    private final StartingStates<K, S> starts = new StartingStates<>();

    /** @param restoredTime null for a fresh state */
    UncheckpointedState(Time restoredTime, JavaRDD<StateVersion<K, S>> restored) {
        if (restoredTime != null) {
            starts.put(restoredTime, restored);
        }
    }

    @Override
    public boolean plansCheckpoints() {
        return false;
    }

    @Override
    public void batchGenerated(Time time, RDD<?> state) {
        throw new IllegalStateException("the state is not checkpointed by Sluice: nothing to plan at " + time);
    }

    @Override
    public Written writeCheckpoint(JavaRDD<StateVersion<K, S>> versions, Time time) {
        throw new IllegalStateException("the state is not checkpointed by Sluice: nothing to write at " + time);
    }

    @Override
    public Optional<JavaRDD<StateVersion<K, S>>> startAfter(Time time) {
        return starts.after(time);
    }

    @Override
    public Optional<Saved> savedAsOf(Time time) {
        return Optional.empty();
    }

    @Override
    public List<OperatorRecord> inUse() {
        return List.of();
    }

    @Override
    public void forgetThrough(Time oldestKept) {
        starts.forgetThrough(oldestKept);
    }
}
