package io.sluice.state;

import io.sluice.rdd.Time;
import io.sluice.state.internal.StateBackend;
import java.time.Duration;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.Optional;
import org.apache.spark.api.java.function.Function3;
import org.apache.spark.api.java.function.Function4;

/**
 * Everything {@code PairDStream.mapWithState} needs: the mapping function and, optionally, an initial state,
 * the number of state partitions (or a partitioner) and a timeout. Mirrors Spark Streaming's {@code StateSpec}:
 *
 * <pre>{@code
 * StateSpec<String, Integer, Long, Long> spec = StateSpec
 *         .function((String word, Optional<Integer> one, State<Long> state) -> {
 *             long count = state.getOption().orElse(0L) + one.orElse(0);
 *             state.update(count);
 *             return count;
 *         })
 *         .numPartitions(4)
 *         .timeout(Duration.ofMinutes(10));
 * }</pre>
 *
 * <p>The function is called once per record, in order within a key; with a timeout it is also called, with
 * an empty value and {@link State#isTimingOut()}, for each key that received no data for longer than the
 * timeout, at the first batch after that (Sluice's timeouts are precise: Spark Streaming only checks them
 * every tenth batch). State is partitioned by key groups: a partitioner given here contributes its number of
 * partitions (an {@link io.sluice.rdd.KeyGroupPartitioner} is used as it is).
 *
 * @param <K> key type
 * @param <V> value type
 * @param <S> state type
 * @param <M> type of the records the function emits
 */
public final class StateSpec<K, V, S, M> {
    private final Object userFunction;
    private JavaPairRDD<K, S> initialState;
    private Partitioner partitioner;
    private Integer numPartitions;
    private Duration timeout;
    private String backend;

    private StateSpec(Object userFunction) {
        this.userFunction = userFunction;
    }

    /** A spec whose function emits exactly one record per call (also for timeouts). */
    public static <K, V, S, M> StateSpec<K, V, S, M> function(Function3<K, Optional<V>, State<S>, M> f) {
        requireFunction(f);
        return new StateSpec<>(f);
    }

    /** A spec whose function also gets the batch time and emits a record only when it returns one. */
    public static <K, V, S, M> StateSpec<K, V, S, M> function(
            Function4<Time, K, Optional<V>, State<S>, Optional<M>> f) {
        requireFunction(f);
        return new StateSpec<>(f);
    }

    private static void requireFunction(Object f) {
        if (f == null) {
            throw new IllegalArgumentException("StateSpec.function needs a function, was null");
        }
    }

    /** The state the first batch starts from (keys are updated at the first batch's time). */
    public StateSpec<K, V, S, M> initialState(JavaPairRDD<K, S> rdd) {
        if (rdd == null) {
            throw new IllegalArgumentException("initialState needs an RDD, was null");
        }
        this.initialState = rdd;
        return this;
    }

    /** How many state partitions (default: the SparkContext's default parallelism). */
    public StateSpec<K, V, S, M> numPartitions(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("numPartitions must be at least 1, was " + n);
        }
        this.numPartitions = n;
        this.partitioner = null;
        return this;
    }

    /** Partitions state like {@code p} (its number of partitions, over key groups). */
    public StateSpec<K, V, S, M> partitioner(Partitioner p) {
        if (p == null) {
            throw new IllegalArgumentException("partitioner must not be null");
        }
        this.partitioner = p;
        this.numPartitions = null;
        return this;
    }

    /** Times a key out once it has received no data for longer than {@code idle}. */
    public StateSpec<K, V, S, M> timeout(Duration idle) {
        if (idle == null || idle.isNegative() || idle.isZero() || idle.toMillis() == 0) {
            throw new IllegalArgumentException("timeout must be at least 1 ms, was " + idle);
        }
        this.timeout = idle;
        return this;
    }

    /**
     * Keeps this operator's state in backend {@code name}, whatever {@code sluice.state.backend} says:
     * {@code "heap"} (tables in the executors' memory, the default) or {@code "rocksdb"} (RocksDB on the
     * executors' local disks, for state larger than memory). Both give the same results batch for batch.
     */
    public StateSpec<K, V, S, M> backend(String name) {
        this.backend = StateBackend.checkName(name);
        return this;
    }

    // ---- read by the engine -------------------------------------------------------------------------------

    /** The function as the user wrote it: a {@code Function3} or a {@code Function4}. */
    public Object userFunction() {
        return userFunction;
    }

    public java.util.Optional<JavaPairRDD<K, S>> getInitialState() {
        return java.util.Optional.ofNullable(initialState);
    }

    public java.util.Optional<Partitioner> getPartitioner() {
        return java.util.Optional.ofNullable(partitioner);
    }

    public java.util.Optional<Integer> getNumPartitions() {
        return java.util.Optional.ofNullable(numPartitions);
    }

    /** The backend this spec chose, if any. */
    public java.util.Optional<String> getBackend() {
        return java.util.Optional.ofNullable(backend);
    }

    public java.util.Optional<Duration> getTimeout() {
        return java.util.Optional.ofNullable(timeout);
    }
}
