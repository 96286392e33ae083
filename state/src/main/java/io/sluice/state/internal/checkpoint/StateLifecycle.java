package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.OperatorRecord;
import io.sluice.state.internal.StateVersion;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;

/**
 * One stateful operator's state across batches, as the engine sequences it: made at start (restored from a
 * checkpoint or not), told when a batch is generated at a checkpoint time, asked to write that batch's
 * checkpoint, asked what the batch after a time starts from and what a progress checkpoint records of it, and told
 * which batches no one needs any more. The operator keeps the graph's part (its state RDDs, exchanges and
 * outputs); this owns the rest: the states it goes on from instead of its state RDDs (restored or planned) and,
 * when it {@link #plansCheckpoints}, the checkpoints' plans, writes and restores ({@link CheckpointedState}).
 */
public interface StateLifecycle<K, S> {
    /**
     * Whether this plans the state's checkpoints (a checkpoint directory): the lineage is cut at the planned
     * states. If not, the operator cuts its state RDDs' lineage with Spark's checkpoints.
     */
    boolean plansCheckpoints();

    /** Batch {@code time}, a checkpoint time, was generated with state RDD {@code state}: plans its checkpoint. */
    void batchGenerated(Time time, RDD<?> state);

    /**
     * The checkpoint job of batch {@code time}, whose state {@code versions} are: writes the files, one Spark task
     * per partition, and returns what it wrote. Only for a state that {@link #plansCheckpoints}.
     */
    Written writeCheckpoint(JavaRDD<StateVersion<K, S>> versions, Time time) throws IOException;

    /** What the batch after {@code time} starts from instead of the state RDD of {@code time}, if anything. */
    Optional<JavaRDD<StateVersion<K, S>>> startAfter(Time time);

    /** The newest complete checkpoint at or before batch {@code time}, as a progress checkpoint records it. */
    Optional<Saved> savedAsOf(Time time);

    /**
     * The records of checkpoints that coming checkpoints build on although no progress checkpoint may name them
     * yet: their files must stay (see the checkpoint store).
     */
    List<OperatorRecord> inUse();

    /** No batch will start from the state of a batch up to {@code oldestKept} any more: drops it. */
    void forgetThrough(Time oldestKept);

    /** What one checkpoint wrote: partitions written whole (a snapshot or a RocksDB manifest) or as deltas. */
    record Written(int fullPartitions, int deltaPartitions, long bytes) {
    }

    /** A complete checkpoint of the state: its batch, and the record a progress checkpoint keeps of it. */
    record Saved(Time time, OperatorRecord record) {
    }

    /** A state that starts empty (or from its initial RDD) and is not checkpointed. */
    static <K, S> StateLifecycle<K, S> fresh() {
        return new UncheckpointedState<>(null, null);
    }

    /** A state restored, not checkpointed from then on: the batch after {@code time} starts from {@code state}. */
    static <K, S> StateLifecycle<K, S> restored(Time time, JavaRDD<StateVersion<K, S>> state) {
        return new UncheckpointedState<>(time, state);
    }
}
