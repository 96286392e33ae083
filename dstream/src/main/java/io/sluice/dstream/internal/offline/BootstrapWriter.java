package io.sluice.dstream.internal.offline;

import io.sluice.dstream.StateEntry;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.HadoopCheckpointStorage;
import io.sluice.state.internal.checkpoint.SavedState;
import io.sluice.state.internal.checkpoint.StateFile;
import io.sluice.state.internal.HeapBackend;
import io.sluice.state.internal.StateLoader;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.checkpoint.CheckpointWriteJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;

/**
 * Writes a checkpoint that holds only state: per operator a full snapshot of every partition (written by the
 * executors, one task per partition, as a job's checkpoint is), then a progress checkpoint of one completed
 * batch with no pending batch and no source position. A job started on the directory with {@code getOrCreate}
 * restores that state and runs its first batch one interval later; its sources start as on a first start.
 */
public final class BootstrapWriter {
    private BootstrapWriter() {
    }

    /**
     * The state of one operator to write.
     *
     * @param kind        the operator's kind ({@code mapWithState}, {@code updateStateByKey}): a restore
     *                    takes state of its own kind only
     * @param partitioner the operator's state layout (its key groups must be the job's)
     * @param timed       whether the operator has a timeout (keys then carry timeout buckets)
     */
    public record Operator(String id, String kind, JavaPairRDD<Object, StateEntry<Object>> entries,
            KeyGroupPartitioner partitioner, boolean timed) {
    }

    public static void write(JavaSparkContext sc, String directory, Duration interval, Time batch,
            List<Operator> operators) {
        if (operators.isEmpty()) {
            throw new IllegalArgumentException("a bootstrap needs the state of at least one operator");
        }
        try {
            HadoopCheckpointStorage storage = new HadoopCheckpointStorage(directory, sc.hadoopConfiguration());
            if (!storage.listFiles(CheckpointStore.PROGRESS_DIR).isEmpty()) {
                throw new IllegalStateException("The directory " + storage.describe("") + " already holds "
                        + "checkpoints: bootstrap into an empty directory (a job's progress is never overwritten)");
            }
            Broadcast<SerializableConfiguration> conf = SerializableConfiguration.broadcast(sc.sc());
            Map<String, String> kinds = new LinkedHashMap<>();
            List<SavedState> states = new ArrayList<>();
            for (Operator op : operators) {
                if (kinds.put(op.id(), op.kind()) != null) {
                    throw new IllegalArgumentException("the state of '" + op.id() + "' is given twice");
                }
                JavaRDD<StateVersion<Object, Object>> versions = versions(op, batch);
                versions.setName("bootstrap of '" + op.id() + "' at batch " + batch.milliseconds());
                List<StateFile> files = CheckpointWriteJob.write(versions, storage.root().toString(), conf, op.id(),
                        batch, Collections.nCopies(op.partitioner().numPartitions(), null),
                        Collections.nCopies(op.partitioner().numPartitions(), new HashMap<>()));
                states.add(new SavedState(op.id(), op.kind(), batch, op.partitioner().numPartitions(),
                        op.partitioner().keyGroups().count(), files));
            }
            new CheckpointStore(storage, CheckpointStore.DEFAULT_RETAINED).write(new Checkpoint(batch, interval, batch,
                    List.of(), batch.plus(interval), kinds, List.of(),
                    states.stream().map(SavedState::toRecord).toList()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the bootstrap checkpoint to " + directory + ": "
                    + e.getMessage(), e);
        }
    }

    /** One version per partition of the operator's layout, each key in the partition of its key group. */
    private static JavaRDD<StateVersion<Object, Object>> versions(Operator op, Time batch) {
        String id = op.id();
        boolean timed = op.timed();
        long at = batch.milliseconds();
        return op.entries().partitionBy(op.partitioner()).mapPartitions(
                (Iterator<Tuple2<Object, StateEntry<Object>>> entries) -> {
                    StateLoader<Object, Object> loader = HeapBackend.INSTANCE.loader(1024, timed);
                    while (entries.hasNext()) {
                        Tuple2<Object, StateEntry<Object>> e = entries.next();
                        long lastUpdate = e._2().lastUpdate().milliseconds();
                        if (lastUpdate > at) {
                            throw new IllegalArgumentException("bootstrap of '" + id + "': key " + e._1()
                                    + " was last updated at " + lastUpdate + ", after the bootstrap batch " + at);
                        }
                        loader.put(e._1(), e._2().state(), lastUpdate);
                    }
                    return List.of(loader.build(at, Long.MIN_VALUE)).iterator();
                }, true);
    }
}
