package io.sluice.dstream.internal.state;

import io.sluice.rdd.internal.ClassTags;
import io.sluice.dstream.internal.CallSite;
import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.RddSeries;
import io.sluice.dstream.scheduler.StateCheckpointInfo;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.rdd.internal.CachedBlocks;
import io.sluice.rdd.internal.Exchange;
import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.Time;
import io.sluice.state.internal.HeapBackend;
import io.sluice.state.internal.MovedStateRDD;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.StateLoader;
import io.sluice.state.internal.StateRDD;
import io.sluice.state.internal.StateShuffle;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.checkpoint.StateLifecycle;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * An operator with per-key state: it keeps, per batch time, a state RDD whose partition i is the state of the
 * key groups of partition i after that batch (plus, for mapWithState, what the batch emitted), computed from
 * the previous batch's state RDD and the batch's records, which are the only thing shuffled (to the state's
 * key-group partitioning). Its output RDD is derived from the state RDD.
 *
 * <p>State RDDs are kept in memory while the operator remembers its batches, and their lineage is cut every
 * checkpoint interval (default ten slides): to the checkpoint directory if there is one, else locally.
 *
 * <p>The number of state partitions can change while the context runs ({@link #repartition}): the first batch
 * generated after the request starts from the previous batch's state moved, whole key groups at a time, to the
 * new partitions ({@link MovedStateRDD}), and exchanges its records to them. A state restored from a
 * checkpoint taken with another number of partitions moves the same way at the first batch.
 *
 * <p>The seam for recovery: {@link #stateVersions(Time)} gives the state after a batch (one version per
 * partition); the state layer's {@link StateLifecycle} it is built with holds the state a restart restored,
 * and plans the state checkpoints, from which the next batch's state is then computed (the lineage cut). The
 * operator only sequences it: a batch generated at a checkpoint time, the state the next batch starts from,
 * and the batches it forgets.
 *
 * <p>The tasks that compute a batch's state report its figures (keys, estimated bytes, timed-out keys) per
 * partition, and the batch's checkpoint job what it wrote ({@link StateFigures}); the scheduler takes them when
 * the batch completes ({@link #stateReport}), for its {@code BatchInfo}.
 *
 * @param <R> the state RDD's partition record
 * @param <T> the output record
 */
public abstract class StatefulOperator<K, V, S, R, T> extends Operator<T> {
    /** Spark Streaming cuts mapWithState's lineage every ten batch intervals; so do both stateful operators. */
    public static final int DEFAULT_CHECKPOINT_SLIDES = 10;

    private final Operator<Tuple2<K, V>> parent;
    private final KeyGroupPartitioner configured;
    /** The state's partitioner from each batch time on, where it changed from {@link #configured}. */
    private final BatchTimeMap<KeyGroupPartitioner> layouts = new BatchTimeMap<>();
    /** A partitioner asked for and not yet applied (the next new batch takes it). */
    private final AtomicReference<KeyGroupPartitioner> requested = new AtomicReference<>();
    private Time newest; // the newest batch whose state RDD was made (guarded by this)
    private final JavaPairRDD<K, S> initialState;
    private final StateLifecycle<K, S> lifecycle;
    private final RddSeries<R> states = RddSeries.internal();
    private Serializer shuffleSerializer;
    private boolean shuffleSerializerChosen;
    private final StateFigures figures;
    private final StateBackend backend;

    protected StatefulOperator(Config config, KeyGroupPartitioner partitioner, JavaPairRDD<K, S> initialState,
            StateBackend backend) {
        super(config);
        this.backend = backend;
        @SuppressWarnings("unchecked")
        Operator<Tuple2<K, V>> p = (Operator<Tuple2<K, V>>) config.parents().get(0);
        this.parent = p;
        this.configured = partitioner;
        this.initialState = initialState;
        this.figures = new StateFigures(config.context().sparkContext().sc(), stableId());
        // A restored state is in the checkpoint's layout: the first batch moves it if that differs.
        this.lifecycle = config.plan().stateOf(stableId(), kind(), describe(), partitioner, slide(), backend);
    }

    /** Describes a stateful stream over {@code parent}; its state's lineage is cut every ten slides by default. */
    protected static <K, V, T> Node<T> statefulNode(GraphDescription graph, String kind, Node<Tuple2<K, V>> parent,
            Object userFunction, Node.Factory<T> factory) {
        return graph.add(kind, CallSite.of(kind), List.of(parent), parent.slide(), null,
                userFunction == null ? List.of() : List.of(userFunction),
                Node.Settings.DEFAULT.withCheckpointInterval(parent.slide().multipliedBy(DEFAULT_CHECKPOINT_SLIDES)),
                factory);
    }

    /**
     * The backend of a stateful operator: the one its description chose ({@code StateSpec.backend}, or the
     * updateStateByKey call's), else the context's {@value StateBackend#SETTING} setting, else the heap.
     */
    protected static StateBackend backendOf(String chosen, Function<String, String> settings,
            KeyGroupPartitioner partitioner) {
        String name = chosen != null ? chosen : settings.apply(StateBackend.SETTING);
        return name == null ? HeapBackend.INSTANCE : StateBackend.named(name, partitioner.keyGroups());
    }

    /** The backend this operator's state lives in. */
    protected final StateBackend backend() {
        return backend;
    }

    /** Whether keys carry timeouts. */
    protected abstract boolean timed();

    /** The transition of batch {@code time}; its previous record is null, an R, or a {@link StateVersion}. */
    protected abstract StateRDD.Transition<Object, Tuple2<K, V>, R> transition(Time time);

    /** The output RDD of a batch, derived from its state RDD. */
    protected abstract JavaRDD<T> output(JavaRDD<R> states, Time time);

    private Serializer shuffleSerializer() {
        if (!shuffleSerializerChosen) {
            shuffleSerializer = StateShuffle.serializer();
            shuffleSerializerChosen = true;
        }
        return shuffleSerializer;
    }

    /** The state versions of a state RDD (one per partition, partition order kept). */
    protected abstract JavaRDD<StateVersion<K, S>> versions(JavaRDD<R> states);

    @Override
    protected final boolean cutsLineageOfOutput() {
        return false;
    }

    /** The state's partitioner as of the newest batch generated (the configured one before any). */
    public final synchronized KeyGroupPartitioner partitioner() {
        return newest == null ? configured : layoutAt(newest);
    }

    /**
     * Asks for the state in {@code partitions} partitions from the next batch generated on: that batch moves
     * whole key groups from the previous batch's partitions to the new ones and exchanges its records to them.
     * A later request before that batch replaces this one.
     */
    public final void repartition(int partitions) {
        KeyGroupPartitioner current = partitioner();
        int groups = current.keyGroups().count();
        if (partitions < 1 || partitions > groups) {
            throw new IllegalArgumentException(describe() + ": the number of state partitions must be in [1, "
                    + groups + "] (its key groups), was " + partitions);
        }
        requested.set(current.withPartitions(partitions));
    }

    private KeyGroupPartitioner layoutAt(Time time) {
        return layouts.atOrBefore(time).map(Map.Entry::getValue).orElse(configured);
    }

    /** The partitioner of batch {@code time}; a new batch after every other one takes a pending request. */
    private KeyGroupPartitioner partitionerOf(Time time) {
        if (newest == null || time.isAfter(newest)) {
            newest = time;
            KeyGroupPartitioner wanted = requested.getAndSet(null);
            if (wanted != null && !wanted.equals(layoutAt(time))) {
                layouts.put(time, wanted);
            }
        }
        return layoutAt(time);
    }

    @Override
    protected final Optional<JavaRDD<T>> compute(Time time) {
        return stateRecords(time).map(s -> output(s, time));
    }

    /** The state RDD of batch {@code time} (computing it, and the ones before it, if needed). */
    public final synchronized Optional<JavaRDD<R>> stateRecords(Time time) {
        if (!isValidTime(time)) {
            return Optional.empty();
        }
        Optional<JavaRDD<R>> existing = states.get(time);
        if (existing.isPresent()) {
            return existing;
        }
        KeyGroupPartitioner partitioner = partitionerOf(time);
        JavaRDD<?> previous = inLayout(previous(time, partitioner), partitioner, time);
        JavaRDD<Tuple2<K, V>> data = parent.getOrCompute(time)
                .orElseGet(() -> context().sparkContext().<Tuple2<K, V>>emptyRDD());
        org.apache.spark.rdd.RDD<Tuple2<K, V>> records = exchanged(time, Exchange.of(data.rdd(), partitioner,
                shuffleSerializer()));
        List<ExecutorLocation> executors = context().statePlacement().executors(); // asked once a batch
        int partitionsPerExecutor = (partitioner.numPartitions() + Math.max(1, executors.size()) - 1)
                / Math.max(1, executors.size());
        @SuppressWarnings("unchecked")
        StateRDD<Object, Tuple2<K, V>, R> rdd = new StateRDD<>(
                previous == null ? null : (org.apache.spark.rdd.RDD<Object>) previous.rdd(),
                records, partitioner, figures.reporting(HeapStateLimit.checked(transition(time), describe(),
                        time, partitionsPerExecutor), time), StatePlacement.over(executors));
        JavaRDD<R> state = new JavaRDD<>(rdd, ClassTags.any());
        state.setName(describe() + " state @ " + time.milliseconds());
        boolean planned = lifecycle.plansCheckpoints();
        state = states.add(time, state, StorageLevel.MEMORY_ONLY(), isCheckpointTime(time) && !planned);
        if (planned && isCheckpointTime(time)) {
            // The checkpoint of this batch is planned now, and the next batch's state computed from the planned
            // state: the lineage is cut there (the batch's checkpoint job writes the files).
            lifecycle.batchGenerated(time, state.rdd());
        }
        return Optional.of(state);
    }

    /** The state after batch {@code time}: one version per state partition, in partition order. */
    public final Optional<JavaRDD<StateVersion<K, S>>> stateVersions(Time time) {
        return stateRecords(time).map(this::versions);
    }

    /** {@code previous} moved to {@code partitioner}'s partitions if it has another number of them. */
    private JavaRDD<?> inLayout(JavaRDD<?> previous, KeyGroupPartitioner partitioner, Time time) {
        if (previous == null || previous.getNumPartitions() == partitioner.numPartitions()) {
            return previous;
        }
        boolean timed = timed();
        long at = time.milliseconds();
        StateBackend b = backend;
        JavaRDD<StateVersion<K, S>> moved = new JavaRDD<>(new MovedStateRDD<K, S>(previous.rdd(), partitioner,
                record -> versionIn(record, b, at, timed)), ClassTags.any());
        moved.setName(describe() + " state moved from " + previous.getNumPartitions() + " to "
                + partitioner.numPartitions() + " partitions @ " + time.milliseconds());
        return moved;
    }

    private JavaRDD<?> previous(Time time, KeyGroupPartitioner partitioner) {
        Time previousTime = time.minus(slide());
        Optional<JavaRDD<StateVersion<K, S>>> start = lifecycle.startAfter(previousTime);
        if (start.isPresent()) {
            return start.get();
        }
        if (previousTime.isAfter(zeroTime())) {
            return stateRecords(previousTime).orElse(null);
        }
        if (initialState == null) {
            return null;
        }
        boolean timed = timed();
        long at = time.milliseconds();
        StateBackend b = backend;
        // A bulk load, shuffled (spilling as Spark's shuffle does) rather than exchanged: a local exchange would
        // hold every initial record in memory until the first batch completes.
        JavaPairRDD<K, S> partitioned = initialState.partitionBy(partitioner);
        StateRDD.Transition<Object, Tuple2<K, S>, StateVersion<K, S>> load = (none, pairs, p) -> load(pairs, b, at,
                timed);
        return new JavaRDD<>(new StateRDD<>(null, partitioned.rdd(), partitioner, load), ClassTags.any());
    }

    private static <K, S> StateVersion<K, S> load(Iterator<Tuple2<K, S>> pairs, StateBackend backend, long time,
            boolean timed) {
        StateLoader<K, S> loader = backend.loader(1024, timed);
        while (pairs.hasNext()) {
            Tuple2<K, S> p = pairs.next();
            loader.put(p._1(), p._2(), time);
        }
        return loader.build(time, Long.MIN_VALUE);
    }

    /**
     * The version a previous record holds (restored and initial states are bare versions), in {@code backend}: a
     * version another backend holds (the state decoded ahead of a restart) is copied into it once.
     */
    protected static <K, S> StateVersion<K, S> versionIn(Object previous, StateBackend backend, long time,
            boolean timed) {
        if (previous == null) {
            return backend.empty(time, timed);
        }
        StateVersion<K, S> v = versionOf(previous);
        return v.backend().equals(backend) ? v : backend.copyOf(v).buildMoved(v.batchTime());
    }

    /** The version a state RDD's record holds. */
    @SuppressWarnings("unchecked")
    static <K, S> StateVersion<K, S> versionOf(Object previous) {
        if (previous instanceof StateVersion<?, ?> v) {
            return (StateVersion<K, S>) v;
        }
        if (previous instanceof io.sluice.state.internal.MapWithStateBatch<?, ?, ?> b) {
            return (StateVersion<K, S>) b.state();
        }
        throw new IllegalStateException("unexpected previous state record " + previous.getClass().getName());
    }

    /** Forgets state RDDs no batch can need any more (see {@link RddSeries}). */
    @Override
    protected void forgetOlderThan(Time oldestKept) {
        states.forgetThrough(oldestKept);
        lifecycle.forgetThrough(oldestKept);
        figures.forgetThrough(oldestKept);
        // the layout in force at oldestKept stays: the batches kept after it use it
        layouts.atOrBefore(oldestKept).ifPresent(inForce -> layouts.forgetBefore(inForce.getKey()));
    }

    /** The figures the tasks reported for completed batch {@code time}, and its state checkpoint if it wrote one. */
    @Override
    public final Optional<StateOperatorInfo> stateReport(Time time) {
        return figures.take(time, layoutAt(time).numPartitions());
    }

    /** The batch's checkpoint job wrote the state of {@code time}; the batch's figures include it. */
    public final void checkpointWritten(Time time, StateCheckpointInfo checkpoint) {
        figures.checkpointWritten(time, checkpoint);
    }

    /**
     * Whether Spark would read a partition of the state after batch {@code time} at executor location
     * {@code location} (where it is cached, else where its task would run); false if the batch's state is gone.
     */
    public final boolean stateAt(Time time, String location) {
        Optional<JavaRDD<R>> state = states.get(time);
        if (state.isEmpty()) {
            return false;
        }
        org.apache.spark.rdd.RDD<R> rdd = state.get().rdd();
        for (int p = 0; p < rdd.getNumPartitions(); p++) {
            if (CachedBlocks.hostsOf(rdd, p).contains(location)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the state of batch {@code time} is checkpointed: a batch time on the checkpoint interval's grid. */
    public final boolean isStateCheckpointTime(Time time) {
        return grid().withStep(checkpointInterval()).contains(time);
    }
}
