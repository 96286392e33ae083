package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.Time;
import io.sluice.state.internal.StateVersion;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;

/**
 * One stateful operator's state across batches, as the engine sequences it: made at start (restored from a
 * checkpoint or not), told when a batch is generated at a checkpoint time, asked what the batch after a time
 * starts from, and told which batches no one needs any more. The operator keeps the graph's part (its state
 * RDDs, exchanges and outputs); this keeps the states it goes on from instead of its state RDDs (restored or
 * planned) and, when it {@link #plansCheckpoints}, the checkpoints ({@link StateCheckpointPlanner}, whose
 * writes the batch's checkpoint job runs).
 */
public interface StateLifecycle<K, S> {
    /**
     * Whether this plans the state's checkpoints (a checkpoint directory): the lineage is cut at the planned
     * states. If not, the operator cuts its state RDDs' lineage with Spark's checkpoints.
     */
    boolean plansCheckpoints();

    /** Batch {@code time}, a checkpoint time, was generated with state RDD {@code state}: plans its checkpoint. */
    void batchGenerated(Time time, RDD<?> state);

    /** What the batch after {@code time} starts from instead of the state RDD of {@code time}, if anything. */
    Optional<JavaRDD<StateVersion<K, S>>> startAfter(Time time);

    /** No batch will start from the state of a batch up to {@code oldestKept} any more: drops it. */
    void forgetThrough(Time oldestKept);

    /** A state that starts empty (or from its initial RDD) and is not checkpointed. */
    static <K, S> StateLifecycle<K, S> fresh() {
        return new UncheckpointedState<>(null, null);
    }

    /** A state restored, not checkpointed from then on: the batch after {@code time} starts from {@code state}. */
    static <K, S> StateLifecycle<K, S> restored(Time time, JavaRDD<StateVersion<K, S>> state) {
        return new UncheckpointedState<>(time, state);
    }
}
