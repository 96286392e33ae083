package io.sluice.dstream.internal.offline;

import io.sluice.dstream.StateChange;
import io.sluice.dstream.StateEntry;
import io.sluice.rdd.Time;
import io.sluice.state.internal.checkpoint.SavedState;
import io.sluice.state.internal.checkpoint.StateFile;
import io.sluice.state.internal.HeapBackend;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.checkpoint.RestoredStateRDD;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;
import scala.reflect.ClassTag$;

/**
 * Reads an operator's checkpointed state as RDDs, one task per state partition reading that partition's
 * files (a snapshot, then deltas) where it runs, as a restart restores it.
 *
 * <p>A read is done when its method returns: the entries are read in one job and cached (spilling to disk),
 * so the running job's later checkpoints and its retention, which deletes the files of old checkpoints, do not
 * touch an RDD already handed out. Files deleted between choosing a checkpoint and reading it make the newest
 * state be chosen again; a read of a given batch whose files went fails, saying so.
 */
public final class OfflineStateReader {
    private static final int ATTEMPTS = 3;

    private final JavaSparkContext sc;
    private final CheckpointDirectory directory;

    /** The files of a chosen checkpoint were deleted before the read finished. */
    static final class Vanished extends RuntimeException {
        Vanished(String file) {
            super(file);
        }
    }

    public OfflineStateReader(JavaSparkContext sc, CheckpointDirectory directory) {
        this.sc = sc;
        this.directory = directory;
    }

    /** The state of {@code operator} at {@code batch}, or at its newest checkpointed batch when null. */
    public <K, S> JavaPairRDD<K, StateEntry<S>> read(String operator, Time batch) {
        for (int attempt = 1; ; attempt++) {
            SavedState state = directory.stateOf(operator, batch);
            try {
                return entries(state);
            } catch (Vanished e) {
                if (batch != null || attempt == ATTEMPTS) {
                    throw deleted(state, e);
                }
            }
        }
    }

    /** The entries of one state checkpoint, read and cached. */
    <K, S> JavaPairRDD<K, StateEntry<S>> entries(SavedState state) {
        JavaRDD<StateVersion<K, S>> versions = versions(state);
        JavaPairRDD<K, StateEntry<S>> entries = versions.flatMapToPair(OfflineStateReader::entriesOf);
        entries.setName("state of '" + state.operatorId() + "' at batch " + state.time().milliseconds());
        return materialized(entries, "the state of '" + state.operatorId() + "' at batch "
                + state.time().milliseconds(), List.of(state));
    }

    /** What changed in the state of {@code operator} from batch {@code from} to batch {@code to}. */
    public <K, S> JavaPairRDD<K, StateChange<S>> changes(String operator, Time from, Time to) {
        if (!to.isAfter(from)) {
            throw new IllegalArgumentException("changes of '" + operator + "': batch " + to.milliseconds()
                    + " is not after batch " + from.milliseconds());
        }
        SavedState before = directory.stateOf(operator, from);
        SavedState after = directory.stateOf(operator, to);
        JavaRDD<StateVersion<K, S>> a = versions(before);
        JavaRDD<StateVersion<K, S>> b = versions(after);
        JavaPairRDD<K, StateChange<S>> changes;
        if (before.partitions() == after.partitions()) { // partition i holds the same key groups in both
            changes = a.zipPartitions(b, StateDiff::<K, S>of).mapToPair(change -> change);
        } else { // re-partitioned in between: match keys by a shuffle
            JavaPairRDD<K, StateEntry<S>> ea = a.flatMapToPair(OfflineStateReader::entriesOf);
            JavaPairRDD<K, StateEntry<S>> eb = b.flatMapToPair(OfflineStateReader::entriesOf);
            changes = ea.fullOuterJoin(eb).flatMapToPair(StateDiff::ofJoined);
        }
        changes.setName("changes of '" + operator + "' from batch " + from.milliseconds() + " to "
                + to.milliseconds());
        try {
            return materialized(changes, "the changes of '" + operator + "' from batch " + from.milliseconds()
                    + " to " + to.milliseconds(), List.of(before, after));
        } catch (Vanished e) {
            throw deleted(after, e);
        }
    }

    private <K, S> JavaRDD<StateVersion<K, S>> versions(SavedState state) {
        Broadcast<SerializableConfiguration> conf = SerializableConfiguration.broadcast(sc.sc());
        List<List<StateFile>> chains = new ArrayList<>();
        for (int p = 0; p < state.partitions(); p++) {
            chains.add(state.chainOf(p));
        }
        RestoredStateRDD<K, S> rdd = new RestoredStateRDD<>(sc.sc(), directory.storage().root().toString(), conf,
                state.operatorId(), "'" + state.operatorId() + "'", state.time(), chains, false, null, null,
                HeapBackend.INSTANCE, null);
        return new JavaRDD<>(rdd, ClassTag$.MODULE$.apply(StateVersion.class));
    }

    private static <K, S> java.util.Iterator<Tuple2<K, StateEntry<S>>> entriesOf(StateVersion<K, S> version) {
        return version.iterator((key, state) -> new Tuple2<>(key, new StateEntry<>(state,
                new Time(version.lastUpdate(key)))));
    }

    /**
     * {@code rdd} computed now and cached: files deleted from here on no longer matter. Throws {@link Vanished}
     * when a file of {@code sources} is gone (before or during the job).
     */
    private <T extends org.apache.spark.api.java.AbstractJavaRDDLike<?, ?>> T materialized(T rdd, String what,
            List<SavedState> sources) {
        for (SavedState s : sources) {
            directory.firstMissing(s).ifPresent(file -> {
                throw new Vanished(file);
            });
        }
        rdd.rdd().persist(StorageLevel.MEMORY_AND_DISK());
        try {
            rdd.rdd().count();
            return rdd;
        } catch (Exception e) {
            rdd.rdd().unpersist(false);
            for (SavedState s : sources) {
                Optional<String> missing = directory.firstMissing(s);
                if (missing.isPresent()) {
                    throw new Vanished(missing.get());
                }
            }
            throw new IllegalStateException("Cannot read " + what + " from " + directory.describe() + ": "
                    + reason(e), e);
        }
    }

    private IllegalStateException deleted(SavedState state, Vanished e) {
        return new IllegalStateException("The checkpoint of the state of '" + state.operatorId() + "' at batch "
                + state.time().milliseconds() + " in " + directory.describe() + " was deleted while it was read ("
                + e.getMessage() + " is gone): a running job keeps only its newest sluice.checkpoint.retained "
                + "checkpoints (default 10). Read a newer batch, or keep more checkpoints.", e);
    }

    /** The task's own message (naming the operator, the batch and the file), not Spark's job failure text. */
    private static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IllegalStateException && t.getMessage() != null
                    && t.getMessage().startsWith("cannot restore partition")) {
                return t.getMessage();
            }
        }
        String message = String.valueOf(e.getMessage());
        int cause = message.indexOf("cannot restore partition");
        String text = cause >= 0 ? message.substring(cause) : message;
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }
}
