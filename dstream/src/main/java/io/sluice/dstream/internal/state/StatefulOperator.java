package io.sluice.dstream.internal.state;

import io.sluice.rdd.internal.ClassTags;
import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.RddSeries;
import io.sluice.dstream.internal.Rdds;
import io.sluice.rdd.internal.Exchange;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.Time;
import io.sluice.state.internal.StateLoader;
import io.sluice.state.internal.StateRDD;
import io.sluice.state.internal.StateShuffle;
import io.sluice.state.internal.StateVersion;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
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
 * <p>The seam for recovery: {@link #stateVersions(Time)} gives the state after a batch (one version per
 * partition), and {@link #restoreFrom} makes the batch after a restored time start from restored versions.
 *
 * @param <R> the state RDD's partition record
 * @param <T> the output record
 */
public abstract class StatefulOperator<K, V, S, R, T> extends Operator<T> {
    /** Spark Streaming cuts mapWithState's lineage every ten batch intervals; so do both stateful operators. */
    public static final int DEFAULT_CHECKPOINT_SLIDES = 10;

    private final Operator<Tuple2<K, V>> parent;
    private final KeyGroupPartitioner partitioner;
    private final JavaPairRDD<K, S> initialState;
    private final RddSeries<R> states = new RddSeries<>();
    /** The exchanges of batches still running, by batch time. */
    private final NavigableMap<Time, Exchange<K, V>> exchanges = new ConcurrentSkipListMap<>();
    private volatile Restored<K, S> restored;
    private volatile boolean lineageCutByRecovery;
    private Serializer shuffleSerializer;
    private boolean shuffleSerializerChosen;

    private record Restored<K, S>(Time time, JavaRDD<StateVersion<K, S>> versions) {
    }

    protected StatefulOperator(String kind, Operator<Tuple2<K, V>> parent, Object userFunction,
            KeyGroupPartitioner partitioner, JavaPairRDD<K, S> initialState) {
        super(parent.graph(), kind, List.of(parent), userFunction == null ? List.of() : List.of(userFunction));
        this.parent = parent;
        this.partitioner = partitioner;
        this.initialState = initialState;
        checkpoint(parent.slide().multipliedBy(DEFAULT_CHECKPOINT_SLIDES));
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

    public final KeyGroupPartitioner partitioner() {
        return partitioner;
    }

    @Override
    protected final Optional<JavaRDD<T>> compute(Time time) {
        return stateRecords(time).map(s -> output(s, time));
    }

    /** The state RDD of batch {@code time} (computing it, and the ones before it, if needed). */
    public final synchronized Optional<JavaRDD<R>> stateRecords(Time time) {
        if (zeroTime() == null || !isValidTime(time)) {
            return Optional.empty();
        }
        Optional<JavaRDD<R>> existing = states.get(time);
        if (existing.isPresent()) {
            return existing;
        }
        JavaRDD<?> previous = previous(time);
        JavaRDD<Tuple2<K, V>> data = parent.getOrCompute(time)
                .orElseGet(() -> graph().sparkContext().<Tuple2<K, V>>emptyRDD());
        Exchange<K, V> exchange = Exchange.of(data.rdd(), partitioner, shuffleSerializer());
        exchanges.put(time, exchange);
        @SuppressWarnings("unchecked")
        StateRDD<Object, Tuple2<K, V>, R> rdd = new StateRDD<>(
                previous == null ? null : (org.apache.spark.rdd.RDD<Object>) previous.rdd(),
                exchange.rdd(), partitioner, transition(time));
        JavaRDD<R> state = new JavaRDD<>(rdd, ClassTags.any());
        state.setName(describe() + " state @ " + time.milliseconds());
        return Optional.of(states.add(time, state, StorageLevel.MEMORY_ONLY(),
                isCheckpointTime(time) && !lineageCutByRecovery));
    }

    /** The state after batch {@code time}: one version per state partition, in partition order. */
    public final Optional<JavaRDD<StateVersion<K, S>>> stateVersions(Time time) {
        return stateRecords(time).map(this::versions);
    }

    /**
     * Makes the batch after {@code time} start from {@code versions} (partition i holding the one version of
     * state partition i, for this operator's {@link #partitioner()}) instead of computing the state of
     * {@code time}. For the recovery layer, before the context starts generating batches after {@code time}.
     */
    public final void restoreFrom(Time time, JavaRDD<StateVersion<K, S>> versions) {
        if (versions.getNumPartitions() != partitioner.numPartitions()) {
            throw new IllegalArgumentException(describe() + ": restored state has " + versions.getNumPartitions()
                    + " partitions, the operator " + partitioner.numPartitions());
        }
        restored = new Restored<>(time, versions);
    }

    /**
     * For the recovery layer, before start: it writes this operator's state at its checkpoint times (as
     * snapshots and deltas) and cuts the lineage there itself with {@link #restoreFrom}, so state RDDs are not
     * checkpointed a second time here.
     */
    public final void cutLineageByRecovery() {
        graph().ensureNotStarted("cutLineageByRecovery()");
        lineageCutByRecovery = true;
    }

    private JavaRDD<?> previous(Time time) {
        Time previousTime = time.minus(slide());
        Restored<K, S> r = restored;
        if (r != null && r.time().equals(previousTime)) {
            return r.versions();
        }
        if (previousTime.isAfter(zeroTime())) {
            return stateRecords(previousTime).orElse(null);
        }
        if (initialState == null) {
            return null;
        }
        boolean timed = timed();
        long at = time.milliseconds();
        // A bulk load, shuffled (spilling as Spark's shuffle does) rather than exchanged: a local exchange would
        // hold every initial record in memory until the first batch completes.
        JavaPairRDD<K, S> partitioned = initialState.partitionBy(partitioner);
        StateRDD.Transition<Object, Tuple2<K, S>, StateVersion<K, S>> load = (none, pairs, p) -> load(pairs, at, timed);
        return new JavaRDD<>(new StateRDD<>(null, partitioned.rdd(), partitioner, load), ClassTags.any());
    }

    private static <K, S> StateVersion<K, S> load(Iterator<Tuple2<K, S>> pairs, long time, boolean timed) {
        StateLoader<K, S> loader = new StateLoader<>(1024, timed);
        while (pairs.hasNext()) {
            Tuple2<K, S> p = pairs.next();
            loader.put(p._1(), p._2(), time);
        }
        return loader.build(time, Long.MIN_VALUE);
    }

    /** The version a previous record holds (restored and initial states are bare versions). */
    @SuppressWarnings("unchecked")
    protected static <K, S> StateVersion<K, S> versionIn(Object previous, long time, boolean timed) {
        if (previous == null) {
            return StateVersion.empty(time, timed);
        }
        if (previous instanceof StateVersion<?, ?> v) {
            return (StateVersion<K, S>) v;
        }
        if (previous instanceof io.sluice.state.internal.MapWithStateBatch<?, ?, ?> b) {
            return (StateVersion<K, S>) b.state();
        }
        throw new IllegalStateException("unexpected previous state record " + previous.getClass().getName());
    }

    /**
     * Releases the exchanges of batches up to {@code time}: their state RDDs are computed and persisted, and a
     * recomputation of one (its blocks lost) exchanges its batch's records again.
     */
    @Override
    protected void batchDone(Time time) {
        Map<Time, Exchange<K, V>> done = exchanges.headMap(time, true);
        done.values().forEach(Exchange::release);
        done.clear();
    }

    /** Forgets state RDDs no batch can need any more (see {@link RddSeries}). */
    @Override
    protected void forgetOlderThan(Time oldestKept) {
        states.forgetThrough(oldestKept);
        Restored<K, S> r = restored;
        if (r != null && !r.time().isAfter(oldestKept)) {
            restored = null;
            if (r.versions().getStorageLevel().useMemory()) { // read ahead after a restart
                r.versions().unpersist(false);
            }
        }
    }

    /** State RDDs currently kept, for tests and diagnostics. */
    public final int keptStates() {
        return states.size();
    }

    public final Duration stateCheckpointInterval() {
        return checkpointInterval();
    }

    /** Whether the state of batch {@code time} is checkpointed: a batch time on the checkpoint interval's grid. */
    public final boolean isStateCheckpointTime(Time time) {
        return zeroTime() != null && new BatchGrid(zeroTime(), checkpointInterval()).contains(time);
    }
}
