package io.sluice.dstream;

import io.sluice.rdd.BatchGrid;
import io.sluice.dstream.internal.Durations;
import io.sluice.dstream.internal.offline.BootstrapWriter;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.Time;
import io.sluice.state.StateSpec;
import io.sluice.state.internal.StatePartitioning;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A checkpoint written from RDDs of (key, state), so that a new job started on it with {@code
 * StreamingContext.getOrCreate} begins with that state (Flink's savepoint bootstrap). Made by {@link
 * CheckpointState#bootstrap}; add each stateful operator's state by its stable id, then {@link #write()}.
 *
 * <p>The checkpoint is of one completed batch ({@link #batchTime}, by default the latest batch boundary before
 * now): the job's first batch is the one after it, and its sources start as on a first start (a bootstrap
 * saves no source position). A state's layout must be the job's: give {@code mapWithState} the job's {@link
 * StateSpec} (its partitions and timeout), {@code updateStateByKey} its number of partitions. Keys given without
 * a time were last updated at the bootstrap batch (a timeout counts from there).
 */
public final class StateBootstrap {
    private static final String MAP_WITH_STATE = "mapWithState";
    private static final String UPDATE_STATE_BY_KEY = "updateStateByKey";

    private final JavaSparkContext sc;
    private final String directory;
    private final Duration batchInterval;
    private final List<Pending> operators = new ArrayList<>();
    private Time batchTime;

    /** One operator's state, as entries or as plain states updated at the bootstrap batch. */
    private record Pending(String id, String kind, JavaPairRDD<Object, Object> pairs, boolean withTimes,
            KeyGroupPartitioner partitioner, boolean timed) {
    }

    StateBootstrap(JavaSparkContext sc, String directory, Duration batchInterval) {
        this.sc = sc;
        this.directory = directory;
        this.batchInterval = Durations.requirePositiveMillis(batchInterval, "the batch interval");
    }

    /** The completed batch the checkpoint is of; a multiple of the batch interval. */
    public StateBootstrap batchTime(Time time) {
        if (!BatchGrid.ofEpoch(batchInterval).isOnGrid(time)) {
            throw new IllegalArgumentException("the bootstrap batch " + time.milliseconds() + " is not a multiple "
                    + "of the batch interval " + batchInterval.toMillis() + " ms");
        }
        this.batchTime = time;
        return this;
    }

    /** The state of the {@code mapWithState} operator {@code operator}, whose job uses {@code spec}. */
    public <K, S> StateBootstrap mapWithState(String operator, JavaPairRDD<K, S> states, StateSpec<K, ?, S, ?> spec) {
        return add(operator, MAP_WITH_STATE, states, false, partitioner(spec), spec.getTimeout().isPresent());
    }

    /** As {@link #mapWithState}, with each key's last update time (e.g. entries {@link CheckpointState#read} gave). */
    public <K, S> StateBootstrap mapWithStateEntries(String operator, JavaPairRDD<K, StateEntry<S>> entries,
            StateSpec<K, ?, S, ?> spec) {
        return add(operator, MAP_WITH_STATE, entries, true, partitioner(spec), spec.getTimeout().isPresent());
    }

    /** The state of the {@code updateStateByKey} operator {@code operator}, in the job's default partitions. */
    public <K, S> StateBootstrap updateStateByKey(String operator, JavaPairRDD<K, S> states) {
        return updateStateByKey(operator, states, sc.defaultParallelism());
    }

    /** As {@link #updateStateByKey(String, JavaPairRDD)}, for a job giving it {@code numPartitions}. */
    public <K, S> StateBootstrap updateStateByKey(String operator, JavaPairRDD<K, S> states, int numPartitions) {
        return add(operator, UPDATE_STATE_BY_KEY, states, false, StatePartitioning.of(null, numPartitions, 0), false);
    }

    /** As {@link #updateStateByKey(String, JavaPairRDD, int)}, with each key's last update time. */
    public <K, S> StateBootstrap updateStateByKeyEntries(String operator, JavaPairRDD<K, StateEntry<S>> entries,
            int numPartitions) {
        return add(operator, UPDATE_STATE_BY_KEY, entries, true, StatePartitioning.of(null, numPartitions, 0), false);
    }

    /** Writes the state files (one task per partition), then the checkpoint; returns the batch it is of. */
    public Time write() {
        Time batch = batchTime != null ? batchTime
                : BatchGrid.ofEpoch(batchInterval).floor(new Time(System.currentTimeMillis()));
        List<BootstrapWriter.Operator> ops = new ArrayList<>();
        for (Pending p : operators) {
            JavaPairRDD<Object, StateEntry<Object>> entries = p.withTimes() ? p.pairs().mapValues(v -> entry(v))
                    : p.pairs().mapValues(s -> new StateEntry<>(s, batch));
            ops.add(new BootstrapWriter.Operator(p.id(), p.kind(), entries, p.partitioner(), p.timed()));
        }
        BootstrapWriter.write(sc, directory, batchInterval, batch, ops);
        return batch;
    }

    @SuppressWarnings("unchecked")
    private static StateEntry<Object> entry(Object value) {
        return (StateEntry<Object>) value;
    }

    private KeyGroupPartitioner partitioner(StateSpec<?, ?, ?, ?> spec) {
        return StatePartitioning.of(spec.getPartitioner().orElse(null), spec.getNumPartitions().orElse(null),
                sc.defaultParallelism());
    }

    @SuppressWarnings("unchecked")
    private StateBootstrap add(String operator, String kind, JavaPairRDD<?, ?> pairs, boolean withTimes,
            KeyGroupPartitioner partitioner, boolean timed) {
        if (operator == null || operator.isBlank()) {
            throw new IllegalArgumentException("a bootstrapped state needs its operator's id (its name)");
        }
        operators.add(new Pending(operator, kind, (JavaPairRDD<Object, Object>) pairs, withTimes, partitioner,
                timed));
        return this;
    }
}
