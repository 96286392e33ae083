package io.sluice.dstream.internal.recovery;

import io.sluice.dstream.internal.Durations;
import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.SourceOperator;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.StartPlan;
import io.sluice.dstream.internal.state.StatefulOperator;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.scheduler.BatchScheduler;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.HadoopCheckpointStorage;
import io.sluice.recovery.internal.RecoveryPlan;
import io.sluice.recovery.UnusableCheckpointException;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.checkpoint.StateLifecycle;
import io.sluice.state.internal.checkpoint.StatePrefetch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
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
     * How the context starts: the running graph, batches to run before the timer, the timer's first batch, what
     * observes the batches (the progress writer and the state checkpoints; none without a checkpoint directory).
     */
    public record Start(StreamGraph graph, List<Time> rerun, Time firstTimerBatch,
            List<BatchScheduler.BatchObserver> observers) {
    }

    private final String directory;
    private final CheckpointStore store;
    private final Checkpoint recovered;
    private final StatePrefetch prefetch;
    private final StartPlan given; // without a checkpoint directory
    private volatile CheckpointWriter writer; // once started with a checkpoint directory

    private Recovery(String directory, CheckpointStore store, Checkpoint recovered, StatePrefetch prefetch) {
        this(directory, store, recovered, prefetch, StartPlan.FRESH);
    }

    private Recovery(String directory, CheckpointStore store, Checkpoint recovered, StatePrefetch prefetch,
            StartPlan given) {
        this.given = given;
        this.directory = directory;
        this.store = store;
        this.recovered = recovered;
        this.prefetch = prefetch;
    }

    /** No checkpoint directory: a start records no progress and recovers nothing. */
    public static Recovery none() {
        return new Recovery(null, null, null, StatePrefetch.none());
    }

    /**
     * A start without checkpoint directory on which the stateful operator {@code stableId} starts from {@code
     * versions} (one per state partition) after batch {@code time}: state decoded elsewhere than from this
     * context's checkpoints (the restore seam, as tests drive it).
     */
    public <K, S> Recovery withState(String stableId, Time time, JavaRDD<StateVersion<K, S>> versions) {
        if (store != null) {
            throw new IllegalStateException("state is given only to a start without checkpoint directory");
        }
        StartPlan plan = new StartPlan() {
            @Override
            public String checkpointDirectory() {
                return null;
            }

            @Override
            public NavigableMap<Time, String> positionsOf(String id) {
                return given.positionsOf(id);
            }

            @Override
            @SuppressWarnings("unchecked")
            public <K2, S2> StateLifecycle<K2, S2> stateOf(String id, String kind, String name,
                    KeyGroupPartitioner partitioner, Duration slide, StateBackend backend) {
                return id.equals(stableId)
                        ? StateLifecycle.restored(time, (JavaRDD<StateVersion<K2, S2>>) (JavaRDD<?>) versions)
                        : given.stateOf(id, kind, name, partitioner, slide, backend);
            }
        };
        return new Recovery(null, null, null, prefetch, plan);
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
     * Builds the running graph of {@code description} (validated and frozen) on the recovered progress, or
     * afresh: checks the description matches the checkpoint, builds the operators with the saved source
     * positions and state, starts its sources, and plans which batches run before the timer. The one start path
     * of every context, with a checkpoint directory or without ({@link #none()}).
     */
    public Start start(JavaSparkContext sc, GraphDescription description, Time now, Settings settings) {
        try {
            return startOn(sc, description, now, settings);
        } catch (RuntimeException e) {
            prefetch.close();
            throw e;
        }
    }

    private Start startOn(JavaSparkContext sc, GraphDescription description, Time now, Settings settings) {
        Duration interval = description.batchInterval();
        if (store == null) {
            Time zero = BatchGrid.startingAt(now, interval).zero();
            return new Start(inputsStarted(new StreamGraph(sc, description, zero, Set.of(), given)), List.of(),
                    zero.plus(interval), List.of());
        }
        deleteOldRddCheckpoints(sc);
        Set<String> checkpointed = new HashSet<>();
        for (Node<?> node : description.reachedByOutputs()) {
            checkpointed.add(description.stableId(node));
        }
        CheckpointedStart plan = new CheckpointedStart(sc, directory, storage(), checkpointed, recovered,
                prefetch);
        if (recovered == null) {
            prefetch.close();
            Time zero = BatchGrid.startingAt(now, interval).zero();
            StreamGraph graph = inputsStarted(new StreamGraph(sc, description, zero, Set.of(), plan));
            return started(graph, plan, List.of(), zero.plus(interval), zero, null);
        }
        if (!recovered.batchInterval().equals(interval)) {
            throw new IllegalStateException("The checkpoint in " + directory + " was written with batch interval "
                    + Durations.show(recovered.batchInterval()) + ", but the application now uses "
                    + Durations.show(interval) + ": use the same interval, or a new checkpoint directory");
        }
        List<String> mismatches = GraphMatch.mismatches(description, recovered);
        if (!mismatches.isEmpty()) {
            if (!settings.allowDroppingState()) {
                throw new IllegalStateException("The application's graph no longer matches the checkpoint in "
                        + directory + ":\n - " + String.join("\n - ", mismatches) + "\nRestore the operators' "
                        + "ids, or set " + "sluice.recovery.allowDroppingState=true to drop what they saved.");
            }
            mismatches.forEach(m -> LOG.warn("Dropping {} (sluice.recovery.allowDroppingState is set)", m));
        }
        RecoveryPlan batches = RecoveryPlan.of(recovered, now, settings.skipMissedBatches());
        StreamGraph graph = inputsStarted(new StreamGraph(sc, description, recovered.zeroTime(),
                Set.copyOf(batches.skipped()), plan));
        List<String> lossy = new ArrayList<>();
        for (SourceOperator<?> input : graph.inputs()) {
            if (!input.replayable()) {
                lossy.add(input.describe());
            }
        }
        lossWarning(lossy, recovered, batches).ifPresent(LOG::warn);
        prefetch.dropUnclaimed(); // every restore of the graph claimed what it takes
        LOG.info("Recovered at batch {}: running {} batches again or late ({} skipped), then the timer from {}",
                recovered.batchTime(), batches.rerun().size(), batches.skipped().size(), batches.firstTimerBatch());
        return started(graph, plan, batches.rerun(), batches.firstTimerBatch(), recovered.zeroTime(),
                recovered.batchTime());
    }

    /** Sources start once their graph is built: they read their settings then, so they know if they replay. */
    private static StreamGraph inputsStarted(StreamGraph graph) {
        for (SourceOperator<?> input : graph.inputs()) {
            input.start();
        }
        return graph;
    }

    /** The batch of the newest checkpoint written since the start, else the one recovered from, if any. */
    public Optional<Time> lastCheckpointed() {
        CheckpointWriter w = writer;
        Time written = w == null ? null : w.lastWritten();
        if (written != null) {
            return Optional.of(written);
        }
        return recovered == null ? Optional.empty() : Optional.of(recovered.batchTime());
    }

    /** The scheduler observes the batches for the progress writer and the state checkpoints. */
    private Start started(StreamGraph graph, CheckpointedStart plan, List<Time> rerun, Time first, Time zero,
            Time lastCheckpointed) {
        List<StateCheckpointObserver<?, ?>> states = new ArrayList<>();
        for (Operator<?> op : graph.operators()) {
            if (op instanceof StatefulOperator<?, ?, ?, ?, ?> stateful) {
                checkpointer(stateful, plan, graph.outputs().size() + states.size()).ifPresent(states::add);
            }
        }
        CheckpointWriter w = new CheckpointWriter(store, graph, List.copyOf(states), zero, lastCheckpointed);
        this.writer = w;
        List<BatchScheduler.BatchObserver> observers = new ArrayList<>();
        observers.add(w);
        observers.addAll(states);
        return new Start(graph, rerun, first, observers);
    }

    /** Its checkpoint job's id follows the output operations' ids (and those of earlier state checkpoints). */
    private static <K, S> Optional<StateCheckpointObserver<K, S>> checkpointer(StatefulOperator<K, ?, S, ?, ?> op,
            CheckpointedStart plan, int jobId) {
        return plan.<K, S>lifecycleOf(op.stableId()).map(c -> new StateCheckpointObserver<>(op, c, jobId));
    }

    private HadoopCheckpointStorage storage() {
        return (HadoopCheckpointStorage) store.storage();
    }

    /** Spark's RDD checkpoints of earlier SparkContexts: nothing ever reads them again. */
    private void deleteOldRddCheckpoints(JavaSparkContext sc) {
        HadoopCheckpointStorage storage = storage();
        scala.Option<String> current = sc.sc().getCheckpointDir();
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
