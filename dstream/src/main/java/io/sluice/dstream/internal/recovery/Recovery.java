package io.sluice.dstream.internal.recovery;

import io.sluice.dstream.internal.Durations;
import io.sluice.dstream.internal.InputOperator;
import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.state.StatefulOperator;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.scheduler.BatchScheduler;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.HadoopCheckpointStorage;
import io.sluice.recovery.internal.RecoveryPlan;
import io.sluice.recovery.internal.StateFile;
import io.sluice.recovery.UnusableCheckpointException;
import io.sluice.state.internal.checkpoint.StatePrefetch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A context's checkpoint directory: what it recovered from (if anything), and how the context starts on
 * it. Recovery never loads code from the checkpoint: the application's factory rebuilt the graph, and the
 * saved progress, source positions and state attach to its operators by stable id.
 */
public final class Recovery {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    /** What the context needs from its settings. */
    public record Settings(int retainedCheckpoints, boolean skipMissedBatches, boolean allowDroppingState) {
    }

    /**
     * How the scheduler starts: batches to run before the timer, the timer's first batch, what observes the
     * batches (the progress writer and the state checkpoints; none without a checkpoint directory).
     */
    public record Start(List<Time> rerun, Time firstTimerBatch, List<BatchScheduler.BatchObserver> observers) {
    }

    private final String directory;
    private final CheckpointStore store;
    private final Checkpoint recovered;
    private final StatePrefetch prefetch;
    private volatile CheckpointWriter writer; // once started with a checkpoint directory

    private Recovery(String directory, CheckpointStore store, Checkpoint recovered, StatePrefetch prefetch) {
        this.directory = directory;
        this.store = store;
        this.recovered = recovered;
        this.prefetch = prefetch;
    }

    /** No checkpoint directory: a start records no progress and recovers nothing. */
    public static Recovery none() {
        return new Recovery(null, null, null, StatePrefetch.none());
    }

    /** Opens the checkpoint directory to record progress in, recovering nothing ({@code checkpoint(dir)}). */
    public static Recovery open(String directory, JavaSparkContext sc, Settings settings) {
        return new Recovery(directory, store(directory, sc, settings), null, StatePrefetch.none());
    }

    /**
     * Opens the checkpoint directory and reads its newest usable checkpoint (skipping bad ones with a warning,
     * failing if there are checkpoints but none is usable). The restore takes from {@code prefetch} the state
     * partitions it decoded ahead.
     */
    public static Recovery recover(String directory, JavaSparkContext sc, Settings settings, StatePrefetch prefetch) {
        CheckpointStore store = store(directory, sc, settings);
        try {
            CheckpointStore.Recovered r = store.latest();
            for (UnusableCheckpointException skipped : r.skipped()) {
                LOG.warn("Skipping {}; falling back to the older {}", skipped.getMessage(), r.file());
            }
            Checkpoint recovered = r.checkpoint().orElse(null);
            if (recovered == null) {
                LOG.info("No checkpoint in {}: starting afresh", directory);
            } else {
                LOG.info("Restarting from the checkpoint {} in {}: batch {} completed, {} pending. The factory given "
                        + "to getOrCreate was run to rebuild the graph from the application's code; the saved "
                        + "progress, source positions and state attach to it", r.file(), directory,
                        recovered.batchTime(), recovered.pending().size());
            }
            return new Recovery(directory, store, recovered, prefetch);
        } catch (IOException e) {
            throw unreadable(directory, e);
        }
    }

    /**
     * Whether {@code directory} holds a checkpoint a start would continue from, read before any SparkContext
     * exists (with the Hadoop configuration of the classpath), for the factory to know whether it restores.
     */
    public static boolean holdsCheckpoint(String directory) {
        try {
            HadoopCheckpointStorage storage = new HadoopCheckpointStorage(directory, new Configuration());
            return new CheckpointStore(storage, Integer.MAX_VALUE).latest().checkpoint().isPresent();
        } catch (IOException e) {
            throw unreadable(directory, e);
        }
    }

    private static CheckpointStore store(String directory, JavaSparkContext sc, Settings settings) {
        try {
            return new CheckpointStore(new HadoopCheckpointStorage(directory, sc.hadoopConfiguration()),
                    settings.retainedCheckpoints());
        } catch (IOException e) {
            throw unreadable(directory, e);
        }
    }

    private static UncheckedIOException unreadable(String directory, IOException e) {
        return new UncheckedIOException("cannot read the checkpoint directory " + directory + ": " + e.getMessage(), e);
    }

    /**
     * The context stops (after its last batch): waits for the progress already submitted to be written, and
     * drops whatever state was decoded ahead and not taken.
     */
    public void close() {
        CheckpointWriter w = writer;
        if (w != null) {
            w.close();
        }
        prefetch.close();
    }


    public Optional<Checkpoint> recovered() {
        return Optional.ofNullable(recovered);
    }

    public CheckpointStore store() {
        return store;
    }

    public String directory() {
        return directory;
    }

    /**
     * Starts {@code graph} (fixes its zero time) on the recovered progress, or afresh: checks the graph matches
     * the checkpoint, restores source positions and state, and plans which batches run before the timer. The
     * one start path of every context, with a checkpoint directory or without ({@link #none()}).
     */
    public Start start(StreamGraph graph, Time now, Settings settings) {
        try {
            return startOn(graph, now, settings);
        } catch (RuntimeException e) {
            prefetch.close();
            throw e;
        }
    }

    private Start startOn(StreamGraph graph, Time now, Settings settings) {
        if (store == null) {
            Time zero = BatchGrid.startingAt(now, graph.batchInterval()).zero();
            graph.start(zero);
            return new Start(List.of(), zero.plus(graph.batchInterval()), List.of());
        }
        deleteOldRddCheckpoints(graph);
        if (recovered == null) {
            prefetch.close();
            List<StateCheckpointer<?, ?>> states = stateCheckpointers(graph);
            Time zero = BatchGrid.startingAt(now, graph.batchInterval()).zero();
            graph.start(zero);
            return started(List.of(), zero.plus(graph.batchInterval()),
                    new CheckpointWriter(store, graph, List.copyOf(states), zero, null), states);
        }
        if (!recovered.batchInterval().equals(graph.batchInterval())) {
            throw new IllegalStateException("The checkpoint in " + directory + " was written with batch interval "
                    + Durations.show(recovered.batchInterval()) + ", but the application now uses "
                    + Durations.show(graph.batchInterval()) + ": use the same interval, or a new checkpoint directory");
        }
        List<String> mismatches = GraphMatch.mismatches(graph, recovered);
        if (!mismatches.isEmpty()) {
            if (!settings.allowDroppingState()) {
                throw new IllegalStateException("The application's graph no longer matches the checkpoint in "
                        + directory + ":\n - " + String.join("\n - ", mismatches) + "\nRestore the operators' "
                        + "ids, or set " + "sluice.recovery.allowDroppingState=true to drop what they saved.");
            }
            mismatches.forEach(m -> LOG.warn("Dropping {} (sluice.recovery.allowDroppingState is set)", m));
        }
        RecoveryPlan plan = RecoveryPlan.of(recovered, now, settings.skipMissedBatches());
        List<StateCheckpointer<?, ?>> states = stateCheckpointers(graph);
        graph.skipBatches(plan.skipped());
        graph.start(recovered.zeroTime());
        restoreSources(graph, plan);
        List<List<StateFile>> restored = new ArrayList<>();
        for (StateCheckpointer<?, ?> state : states) {
            recovered.stateOf(state.operator().stableId()).filter(s -> s.kind().equals(state.operator().kind()))
                    .ifPresent(s -> restored.addAll(state.restore(s)));
        }
        prefetch.retainOnly(storage().root().toString(), restored);
        LOG.info("Recovered at batch {}: running {} batches again or late ({} skipped), then the timer from {}",
                recovered.batchTime(), plan.rerun().size(), plan.skipped().size(), plan.firstTimerBatch());
        return started(plan.rerun(), plan.firstTimerBatch(),
                new CheckpointWriter(store, graph, List.copyOf(states), recovered.zeroTime(), recovered.batchTime()),
                states);
    }

    private Start started(List<Time> rerun, Time first, CheckpointWriter writer, List<StateCheckpointer<?, ?>> states) {
        this.writer = writer;
        List<BatchScheduler.BatchObserver> observers = new ArrayList<>();
        observers.add(writer);
        observers.addAll(states);
        return new Start(rerun, first, observers);
    }

    /**
     * Takes over state checkpoints (and lineage cuts) of every stateful operator an output reaches (the others
     * never compute a batch); before the graph starts. Their jobs' ids follow the output operations' ids.
     */
    private List<StateCheckpointer<?, ?>> stateCheckpointers(StreamGraph graph) {
        List<StateCheckpointer<?, ?>> result = new ArrayList<>();
        Broadcast<SerializableConfiguration> conf = null;
        int jobId = graph.outputs().size();
        for (Operator<?> op : graph.reachedByOutputs()) {
            if (op instanceof StatefulOperator<?, ?, ?, ?, ?> stateful) {
                if (conf == null) {
                    conf = SerializableConfiguration.broadcast(graph.sparkContext().sc());
                }
                result.add(checkpointer(stateful, conf, jobId++));
            }
        }
        return result;
    }

    private <K, S> StateCheckpointer<K, S> checkpointer(StatefulOperator<K, ?, S, ?, ?> op,
            Broadcast<SerializableConfiguration> conf, int jobId) {
        return new StateCheckpointer<>(op, storage().root().toString(), storage().fileSystem(), conf, jobId);
    }

    private HadoopCheckpointStorage storage() {
        return (HadoopCheckpointStorage) store.storage();
    }

    /** Spark's RDD checkpoints of earlier SparkContexts: nothing ever reads them again. */
    private void deleteOldRddCheckpoints(StreamGraph graph) {
        HadoopCheckpointStorage storage = storage();
        scala.Option<String> current = graph.sparkContext().sc().getCheckpointDir();
        try {
            org.apache.hadoop.fs.Path rdd = new org.apache.hadoop.fs.Path(storage.root(), "rdd");
            if (!storage.fileSystem().exists(rdd)) {
                return;
            }
            for (org.apache.hadoop.fs.FileStatus old : storage.fileSystem().listStatus(rdd)) {
                String name = old.getPath().getName();
                if (current.isEmpty() || !current.get().endsWith("/" + name)) {
                    storage.fileSystem().delete(old.getPath(), true);
                }
            }
        } catch (IOException e) {
            LOG.warn("Could not delete old RDD checkpoints under {}", directory, e);
        }
    }

    private void restoreSources(StreamGraph graph, RecoveryPlan plan) {
        List<String> lossy = new ArrayList<>();
        for (InputOperator<?> input : graph.inputs()) {
            NavigableMap<Time, String> positions = new TreeMap<>();
            for (Checkpoint.SourcePosition p : recovered.sources()) {
                if (p.operatorId().equals(input.stableId())) {
                    positions.put(p.time(), p.position());
                }
            }
            if (!positions.isEmpty()) {
                input.restorePositions(positions);
            }
            if (!input.replayable()) {
                lossy.add(input.describe());
            }
        }
        lossWarning(lossy, recovered, plan).ifPresent(LOG::warn);
    }

    /**
     * What a restart loses with sources that cannot replay ({@code lossy}, empty if all can): the batches pending
     * at the crash run again without the records they held, and the batches missed while the driver was down
     * run for the first time, without what was sent to those sources meanwhile. Empty when nothing is lost.
     */
    static Optional<String> lossWarning(List<String> lossy, Checkpoint recovered, RecoveryPlan plan) {
        if (lossy.isEmpty()) {
            return Optional.empty();
        }
        List<Time> again = plan.rerun().stream().filter(recovered.pending()::contains).toList();
        List<Time> missed = plan.rerun().stream().filter(t -> !recovered.pending().contains(t)).toList();
        List<String> parts = new ArrayList<>();
        if (!again.isEmpty()) {
            parts.add("the batches pending at the crash (" + span(again) + ") run again without the records they "
                    + "held before it");
        }
        if (!missed.isEmpty()) {
            parts.add("the batches missed while the driver was down (" + span(missed) + ") run now, without the "
                    + "records sent to those sources while it was down");
        }
        return parts.isEmpty() ? Optional.empty()
                : Optional.of("Sources " + lossy + " are not replayable: " + String.join("; ", parts));
    }

    private static String span(List<Time> times) {
        return times.size() == 1 ? times.get(0).toString()
                : times.size() + " batches, " + times.get(0) + " to " + times.get(times.size() - 1);
    }
}
