package io.sluice.dstream;

import io.sluice.dstream.internal.offline.CheckpointDirectory;
import io.sluice.dstream.internal.offline.CheckpointReport;
import io.sluice.dstream.internal.offline.OfflineStateReader;
import io.sluice.rdd.Time;
import io.sluice.state.internal.checkpoint.SavedState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The state a job checkpointed, read without running the job (or while it runs), as Structured Streaming's
 * state data source and Flink's State Processor API read theirs:
 *
 * <pre>{@code
 * CheckpointState checkpoint = CheckpointState.open(sc, "hdfs:///checkpoints/sessions");
 * JavaPairRDD<String, StateEntry<Long>> counts = checkpoint.read("counts");       // the newest checkpointed batch
 * JavaPairRDD<String, StateChange<Long>> changed = checkpoint.changes("counts", t1, t2);
 * CheckpointState.bootstrap(sc, "hdfs:///checkpoints/new", Duration.ofSeconds(1))
 *         .mapWithState("counts", counts.mapValues(StateEntry::state), spec).write();
 * }</pre>
 *
 * An operator is named by its stable id: the name given with {@code name("...")}, else {@code
 * '#<position>-<kind>'} ({@link #operators()} lists them). State is checkpointed every checkpoint interval of
 * its operator (ten batch intervals by default); {@link #stateBatches} lists the batches a read can ask for.
 * Reads run one Spark task per state partition, each reading its partition's files, and are complete when they
 * return: the entries are cached (spilling to disk; {@code unpersist()} them when done), so the running job's
 * newer checkpoints and the deletion of old ones do not affect an RDD already read. The application's key and
 * state classes must be on the class path, registered with Kryo as the job registers them. See
 * docs/offline-state.md.
 */
public final class CheckpointState {
    private final CheckpointDirectory directory;
    private final OfflineStateReader reader;

    private CheckpointState(JavaSparkContext sc, CheckpointDirectory directory) {
        this.directory = directory;
        this.reader = new OfflineStateReader(sc, directory);
    }

    /** The checkpoints in {@code directory} (a local path or any Hadoop file system URI), read with {@code sc}. */
    public static CheckpointState open(JavaSparkContext sc, String directory) {
        return new CheckpointState(sc, new CheckpointDirectory(directory, sc.hadoopConfiguration()));
    }

    /** The batches of the usable checkpoints in the directory now, oldest first. */
    public List<Time> batches() {
        return directory.batches();
    }

    /** The operators with state in the newest checkpoint: stable id to kind (mapWithState, updateStateByKey). */
    public Map<String, String> operators() {
        Map<String, String> kinds = new TreeMap<>();
        for (SavedState s : SavedState.allOf(directory.newest())) {
            kinds.put(s.operatorId(), s.kind());
        }
        return kinds;
    }

    /** The batches whose state of {@code operator} the directory holds now, oldest first. */
    public List<Time> stateBatches(String operator) {
        return List.copyOf(directory.statesOf(operator).keySet());
    }

    /** The state of {@code operator} at its newest checkpointed batch, with each key's last update time. */
    public <K, S> JavaPairRDD<K, StateEntry<S>> read(String operator) {
        return reader.read(operator, null);
    }

    /** The state of {@code operator} after batch {@code batch}, one of its {@link #stateBatches}. */
    public <K, S> JavaPairRDD<K, StateEntry<S>> read(String operator, Time batch) {
        return reader.read(operator, batch);
    }

    /**
     * The keys of {@code operator} added, updated (a state not {@code equals} the earlier one) or removed from
     * checkpointed batch {@code from} to checkpointed batch {@code to}.
     */
    public <K, S> JavaPairRDD<K, StateChange<S>> changes(String operator, Time from, Time to) {
        return reader.changes(operator, from, to);
    }

    /** What {@link CheckpointInspector} prints: batches, operators, state sizes per partition, source positions. */
    public String describe() {
        return new CheckpointReport(directory).render(null);
    }

    /** As {@link #describe()}, for the checkpoint of {@code batch}. */
    public String describe(Time batch) {
        return new CheckpointReport(directory).render(batch);
    }

    /**
     * Starts writing a checkpoint of state only into {@code directory} (which must hold no checkpoint), for a
     * job with batch interval {@code batchInterval} to start from with {@code getOrCreate}.
     */
    public static StateBootstrap bootstrap(JavaSparkContext sc, String directory, Duration batchInterval) {
        return new StateBootstrap(sc, directory, batchInterval);
    }

    @Override
    public String toString() {
        return "CheckpointState(" + directory.describe() + ")";
    }
}
