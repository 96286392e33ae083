package io.sluice.dstream;

import io.sluice.rdd.Time;
import io.sluice.dstream.internal.CombineByKeyOperator;
import io.sluice.dstream.internal.DerivedOperator;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.Rdds;
import io.sluice.dstream.internal.UserFunctions;
import io.sluice.rdd.internal.Transforms;
import io.sluice.rdd.internal.SharedKryoSerializer;
import io.sluice.dstream.internal.window.ReducedWindowOperator;
import io.sluice.dstream.internal.window.WindowOperator;
import io.sluice.dstream.internal.window.WindowFunctions;
import io.sluice.dstream.internal.state.MapWithStateOperator;
import io.sluice.dstream.internal.state.UpdateStateOperator;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.state.StateSpec;
import io.sluice.state.internal.StatePartitioning;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.OutputFormat;
import org.apache.spark.HashPartitioner;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.Optional;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * A stream of key-value pairs, with the by-key operations of Spark Streaming's {@code JavaPairDStream}.
 * Without an explicit partition count, shuffles use the SparkContext's default parallelism.
 */
public class PairDStream<K, V> extends DStreamLike<Tuple2<K, V>, JavaPairRDD<K, V>> {
    PairDStream(StreamingContext context, Node<Tuple2<K, V>> node) {
        super(context, node);
    }

    Partitioner defaultPartitioner() {
        return new HashPartitioner(context.sparkContext().defaultParallelism());
    }

    @Override
    final JavaPairRDD<K, V> view(JavaRDD<Tuple2<K, V>> rdd) {
        return Rdds.pairs(rdd);
    }

    /** This stream as a stream of tuples (its functions then see {@code JavaRDD<Tuple2<K, V>>}). */
    public DStream<Tuple2<K, V>> toJavaDStream() {
        return new DStream<>(context, node());
    }

    /** A stream of tuples as a pair stream. */
    public static <K, V> PairDStream<K, V> fromJavaDStream(DStream<Tuple2<K, V>> stream) {
        return new PairDStream<>(stream.context(), stream.node());
    }

    // ---- operations that keep the stream's type ------------------------------------------------------

    public PairDStream<K, V> filter(Function<Tuple2<K, V>, Boolean> f) {
        return byKey("filter", f, (rdd, fns) -> Transforms.filter(rdd, fns.function(f)));
    }

    public PairDStream<K, V> repartition(int numPartitions) {
        return byKey("repartition", null, (rdd, fns) -> rdd.repartition(numPartitions));
    }

    public PairDStream<K, V> union(PairDStream<K, V> other) {
        return context.union(this, other);
    }

    /** Keeps each batch's RDD in memory (serialized) while the stream remembers it. */
    public PairDStream<K, V> cache() {
        return persist(StorageLevel.MEMORY_ONLY_SER());
    }

    public PairDStream<K, V> persist() {
        return cache();
    }

    public PairDStream<K, V> persist(StorageLevel level) {
        description().persist(node(), level);
        return this;
    }

    /** Cuts this stream's lineage every {@code interval} (reliably with a checkpoint directory, else locally). */
    public PairDStream<K, V> checkpoint(Duration interval) {
        description().checkpoint(node(), interval);
        return this;
    }

    /** Names this stream: checkpoints attach its state and progress to the name, which survives code changes. */
    public PairDStream<K, V> name(String name) {
        description().name(node(), name);
        return this;
    }

    // ---- per-key values ---------------------------------------------------------------------------------

    public <U> PairDStream<K, U> mapValues(Function<V, U> f) {
        return byKey("mapValues", f, (rdd, fns) -> Transforms.mapValues(rdd, fns.function(f)));
    }

    public <U> PairDStream<K, U> flatMapValues(FlatMapFunction<V, U> f) {
        return byKey("flatMapValues", f, (rdd, fns) -> Transforms.flatMapValues(rdd, fns.flatMap(f)));
    }

    // ---- shuffles ---------------------------------------------------------------------------------------

    public PairDStream<K, V> reduceByKey(Function2<V, V, V> f) {
        return reduceByKey(f, defaultPartitioner());
    }

    public PairDStream<K, V> reduceByKey(Function2<V, V, V> f, int numPartitions) {
        return reduceByKey(f, new HashPartitioner(numPartitions));
    }

    public PairDStream<K, V> reduceByKey(Function2<V, V, V> f, Partitioner partitioner) {
        return new PairDStream<>(context, CombineByKeyOperator.<K, V, V>node(description(), "reduceByKey", node(),
                List.of(f), v -> v, f, f, partitioner));
    }

    public PairDStream<K, Iterable<V>> groupByKey() {
        return groupByKey(defaultPartitioner());
    }

    public PairDStream<K, Iterable<V>> groupByKey(int numPartitions) {
        return groupByKey(new HashPartitioner(numPartitions));
    }

    public PairDStream<K, Iterable<V>> groupByKey(Partitioner partitioner) {
        return byKey("groupByKey", null, (rdd, fns) -> rdd.groupByKey(partitioner));
    }

    public <C> PairDStream<K, C> combineByKey(Function<V, C> createCombiner, Function2<C, V, C> mergeValue,
            Function2<C, C, C> mergeCombiners, Partitioner partitioner) {
        return combineByKey(createCombiner, mergeValue, mergeCombiners, partitioner, true);
    }

    public <C> PairDStream<K, C> combineByKey(Function<V, C> createCombiner, Function2<C, V, C> mergeValue,
            Function2<C, C, C> mergeCombiners, Partitioner partitioner, boolean mapSideCombine) {
        if (mapSideCombine) {
            return new PairDStream<>(context, CombineByKeyOperator.node(description(), "combineByKey", node(),
                    List.of(createCombiner, mergeValue, mergeCombiners), createCombiner, mergeValue, mergeCombiners,
                    partitioner));
        }
        return new PairDStream<>(context, DerivedOperator.<Tuple2<K, V>, Tuple2<K, C>>node(description(),
                "combineByKey", node(), List.of(createCombiner, mergeValue, mergeCombiners), (rdd, time, fns) ->
                        Rdds.tuples(Rdds.pairs(rdd).combineByKey(fns.function(createCombiner),
                                fns.function2(mergeValue), fns.function2(mergeCombiners), partitioner, false,
                                SharedKryoSerializer.ofContext()))));
    }

    // ---- joins ------------------------------------------------------------------------------------------

    public <W> PairDStream<K, Tuple2<V, W>> join(PairDStream<K, W> other) {
        return join(other, defaultPartitioner());
    }

    public <W> PairDStream<K, Tuple2<V, W>> join(PairDStream<K, W> other, int numPartitions) {
        return join(other, new HashPartitioner(numPartitions));
    }

    public <W> PairDStream<K, Tuple2<V, W>> join(PairDStream<K, W> other, Partitioner partitioner) {
        return joined("join", other, (a, b) -> a.join(b, partitioner));
    }

    public <W> PairDStream<K, Tuple2<V, Optional<W>>> leftOuterJoin(PairDStream<K, W> other) {
        return leftOuterJoin(other, defaultPartitioner());
    }

    public <W> PairDStream<K, Tuple2<V, Optional<W>>> leftOuterJoin(PairDStream<K, W> other, int numPartitions) {
        return leftOuterJoin(other, new HashPartitioner(numPartitions));
    }

    public <W> PairDStream<K, Tuple2<V, Optional<W>>> leftOuterJoin(PairDStream<K, W> other, Partitioner partitioner) {
        return joined("leftOuterJoin", other, (a, b) -> a.leftOuterJoin(b, partitioner));
    }

    public <W> PairDStream<K, Tuple2<Optional<V>, W>> rightOuterJoin(PairDStream<K, W> other) {
        return rightOuterJoin(other, defaultPartitioner());
    }

    public <W> PairDStream<K, Tuple2<Optional<V>, W>> rightOuterJoin(PairDStream<K, W> other, int numPartitions) {
        return rightOuterJoin(other, new HashPartitioner(numPartitions));
    }

    public <W> PairDStream<K, Tuple2<Optional<V>, W>> rightOuterJoin(PairDStream<K, W> other, Partitioner partitioner) {
        return joined("rightOuterJoin", other, (a, b) -> a.rightOuterJoin(b, partitioner));
    }

    public <W> PairDStream<K, Tuple2<Optional<V>, Optional<W>>> fullOuterJoin(PairDStream<K, W> other) {
        return fullOuterJoin(other, defaultPartitioner());
    }

    public <W> PairDStream<K, Tuple2<Optional<V>, Optional<W>>> fullOuterJoin(PairDStream<K, W> other,
            int numPartitions) {
        return fullOuterJoin(other, new HashPartitioner(numPartitions));
    }

    public <W> PairDStream<K, Tuple2<Optional<V>, Optional<W>>> fullOuterJoin(PairDStream<K, W> other,
            Partitioner partitioner) {
        return joined("fullOuterJoin", other, (a, b) -> a.fullOuterJoin(b, partitioner));
    }

    public <W> PairDStream<K, Tuple2<Iterable<V>, Iterable<W>>> cogroup(PairDStream<K, W> other) {
        return cogroup(other, defaultPartitioner());
    }

    public <W> PairDStream<K, Tuple2<Iterable<V>, Iterable<W>>> cogroup(PairDStream<K, W> other, int numPartitions) {
        return cogroup(other, new HashPartitioner(numPartitions));
    }

    public <W> PairDStream<K, Tuple2<Iterable<V>, Iterable<W>>> cogroup(PairDStream<K, W> other,
            Partitioner partitioner) {
        return joined("cogroup", other, (a, b) -> a.cogroup(b, partitioner));
    }

    // ---- windows by key (see internal/window) -------------------------------------------------------------

    public PairDStream<K, V> window(Duration window) {
        return window(window, slideDuration());
    }

    public PairDStream<K, V> window(Duration window, Duration slide) {
        return new PairDStream<>(context, WindowOperator.node(description(), node(), window, slide));
    }

    /** Each key's values in the last {@code window}, one RDD per batch. */
    public PairDStream<K, Iterable<V>> groupByKeyAndWindow(Duration window) {
        return groupByKeyAndWindow(window, slideDuration());
    }

    public PairDStream<K, Iterable<V>> groupByKeyAndWindow(Duration window, Duration slide) {
        return groupByKeyAndWindow(window, slide, defaultPartitioner());
    }

    public PairDStream<K, Iterable<V>> groupByKeyAndWindow(Duration window, Duration slide, int numPartitions) {
        return groupByKeyAndWindow(window, slide, new HashPartitioner(numPartitions));
    }

    /** Groups each batch once, windows the groups, then merges them per key without another shuffle. */
    public PairDStream<K, Iterable<V>> groupByKeyAndWindow(Duration window, Duration slide, Partitioner partitioner) {
        PairDStream<K, List<V>> merged = groupByKey(partitioner).window(window, slide).combineByKey(
                WindowFunctions.<V>listOf(), WindowFunctions.<V>addAll(), WindowFunctions.<V>concat(), partitioner);
        @SuppressWarnings({"unchecked", "rawtypes"})
        PairDStream<K, Iterable<V>> grouped = (PairDStream) merged;
        return grouped;
    }

    /** Each key's values in the last {@code window} reduced with {@code f}, one RDD per batch. */
    public PairDStream<K, V> reduceByKeyAndWindow(Function2<V, V, V> f, Duration window) {
        return reduceByKeyAndWindow(f, window, slideDuration());
    }

    public PairDStream<K, V> reduceByKeyAndWindow(Function2<V, V, V> f, Duration window, Duration slide) {
        return reduceByKeyAndWindow(f, window, slide, defaultPartitioner());
    }

    public PairDStream<K, V> reduceByKeyAndWindow(Function2<V, V, V> f, Duration window, Duration slide,
            int numPartitions) {
        return reduceByKeyAndWindow(f, window, slide, new HashPartitioner(numPartitions));
    }

    /**
     * Reduces each batch by key once, windows the reduced batches, then reduces them per key (no second
     * shuffle: they share the partitioner). Costs in proportion to the window's length; with an inverse
     * function, the incremental overloads cost in proportion to what enters and leaves.
     */
    public PairDStream<K, V> reduceByKeyAndWindow(Function2<V, V, V> f, Duration window, Duration slide,
            Partitioner partitioner) {
        return reduceByKey(f, partitioner).window(window, slide).reduceByKey(f, partitioner);
    }

    /**
     * Incremental: each window is the previous one with {@code invF} applied to the batches that left and
     * {@code f} to those that entered. Keys stay in the window with their "zero" value once all their values
     * have left; use the overloads with a filter function to drop them. Lineage is cut periodically (every
     * slide multiple of at least 10 s unless {@link #checkpoint} says otherwise), with or without a checkpoint
     * directory.
     */
    public PairDStream<K, V> reduceByKeyAndWindow(Function2<V, V, V> f, Function2<V, V, V> invF, Duration window,
            Duration slide) {
        return reduceByKeyAndWindow(f, invF, window, slide, defaultPartitioner(), null);
    }

    /** As the incremental form, keeping only the keys for which {@code filterFunc} is true (null keeps all). */
    public PairDStream<K, V> reduceByKeyAndWindow(Function2<V, V, V> f, Function2<V, V, V> invF, Duration window,
            Duration slide, int numPartitions, Function<Tuple2<K, V>, Boolean> filterFunc) {
        return reduceByKeyAndWindow(f, invF, window, slide, new HashPartitioner(numPartitions), filterFunc);
    }

    public PairDStream<K, V> reduceByKeyAndWindow(Function2<V, V, V> f, Function2<V, V, V> invF, Duration window,
            Duration slide, Partitioner partitioner, Function<Tuple2<K, V>, Boolean> filterFunc) {
        return new PairDStream<>(context,
                ReducedWindowOperator.node(description(), node(), f, invF, filterFunc, window, slide, partitioner));
    }


    // ---- state (see the state module and internal/state) --------------------------------------------------

    /**
     * Keeps a state per key: every batch, {@code f} is called for every key with state (with the batch's values
     * for it, possibly none) and for every new key; an empty result removes the key. Each batch of the returned
     * stream holds the whole state. Only the batch's records are shuffled, never the state.
     */
    public <S> PairDStream<K, S> updateStateByKey(Function2<List<V>, Optional<S>, Optional<S>> f) {
        return updateStateByKey(f, StatePartitioning.of(null, null, context.sparkContext().defaultParallelism()), null,
                null);
    }

    public <S> PairDStream<K, S> updateStateByKey(Function2<List<V>, Optional<S>, Optional<S>> f, int numPartitions) {
        return updateStateByKey(f, StatePartitioning.of(null, numPartitions, 0), null, null);
    }

    /** As {@link #updateStateByKey(Function2)}, with as many state partitions as {@code partitioner} has. */
    public <S> PairDStream<K, S> updateStateByKey(Function2<List<V>, Optional<S>, Optional<S>> f,
            Partitioner partitioner) {
        return updateStateByKey(f, StatePartitioning.of(partitioner, null, 0), null, null);
    }

    /** As {@link #updateStateByKey(Function2, Partitioner)}, starting from {@code initialRDD}. */
    public <S> PairDStream<K, S> updateStateByKey(Function2<List<V>, Optional<S>, Optional<S>> f,
            Partitioner partitioner, JavaPairRDD<K, S> initialRDD) {
        if (initialRDD == null) {
            throw new IllegalArgumentException("updateStateByKey: initialRDD must not be null");
        }
        return updateStateByKey(f, StatePartitioning.of(partitioner, null, 0), initialRDD, null);
    }

    /**
     * As {@link #updateStateByKey(Function2, Partitioner, JavaPairRDD)}, with the state in backend {@code backend}:
     * {@code "heap"} (tables in the executors' memory) or {@code "rocksdb"} (RocksDB on the executors' local disks,
     * for state larger than memory), whatever {@code sluice.state.backend} says. {@code initialRDD} may be null.
     */
    public <S> PairDStream<K, S> updateStateByKey(Function2<List<V>, Optional<S>, Optional<S>> f,
            Partitioner partitioner, JavaPairRDD<K, S> initialRDD, String backend) {
        if (backend != null) {
            io.sluice.state.internal.StateBackend.checkName(backend); // fails now, naming the choices
        }
        return updateStateByKey(f, StatePartitioning.of(partitioner, null,
                context.sparkContext().defaultParallelism()), initialRDD, backend);
    }

    private <S> PairDStream<K, S> updateStateByKey(Function2<List<V>, Optional<S>, Optional<S>> f,
            KeyGroupPartitioner partitioner, JavaPairRDD<K, S> initialRDD, String backend) {
        if (f == null) {
            throw new IllegalArgumentException("updateStateByKey needs a function, was null");
        }
        return new PairDStream<>(context, UpdateStateOperator.node(description(), node(), f, partitioner, initialRDD,
                backend, context::setting));
    }

    /**
     * Keeps a state per key and emits records as the {@link StateSpec}'s function says: each record of the
     * batch passes through the function on its own, in order within its key (and, with a timeout, each key
     * idle for longer than it, once, timing out).
     */
    public <S, M> MapWithStateDStream<K, V, S, M> mapWithState(StateSpec<K, V, S, M> spec) {
        if (spec == null) {
            throw new IllegalArgumentException("mapWithState needs a StateSpec, was null");
        }
        return new MapWithStateDStream<>(context, MapWithStateOperator.node(description(), node(), spec,
                context.sparkContext().defaultParallelism(), context::setting));
    }

    // ---- Hadoop output formats ---------------------------------------------------------------------------

    /**
     * Saves each batch with an old-API ({@code org.apache.hadoop.mapred}) output format in the directory {@code
     * prefix-<batch ms>[.suffix]}, committed exactly once per batch as {@link #saveAsTextFiles} is.
     */
    public <F extends OutputFormat<?, ?>> void saveAsHadoopFiles(String prefix, String suffix, Class<?> keyClass,
            Class<?> valueClass, Class<F> outputFormatClass) {
        saveAsHadoopFiles(prefix, suffix, keyClass, valueClass, outputFormatClass, null);
    }

    /** As {@link #saveAsHadoopFiles(String, String, Class, Class, Class)}, with a job configuration (null: the
     * SparkContext's Hadoop configuration); each batch writes with its own copy, as Spark Streaming does. */
    public <F extends OutputFormat<?, ?>> void saveAsHadoopFiles(String prefix, String suffix, Class<?> keyClass,
            Class<?> valueClass, Class<F> outputFormatClass, JobConf conf) {
        batchFiles("saveAsHadoopFiles", prefix, suffix, (rdd, dir) -> rdd.saveAsHadoopFile(dir, keyClass, valueClass,
                outputFormatClass, new JobConf(conf == null ? rdd.context().hadoopConfiguration() : conf)));
    }

    /** As {@link #saveAsHadoopFiles(String, String, Class, Class, Class)}, with a new-API output format. */
    public <F extends org.apache.hadoop.mapreduce.OutputFormat<?, ?>> void saveAsNewAPIHadoopFiles(String prefix,
            String suffix, Class<?> keyClass, Class<?> valueClass, Class<F> outputFormatClass) {
        saveAsNewAPIHadoopFiles(prefix, suffix, keyClass, valueClass, outputFormatClass, null);
    }

    /** As {@link #saveAsNewAPIHadoopFiles(String, String, Class, Class, Class)}, with a Hadoop configuration. */
    public <F extends org.apache.hadoop.mapreduce.OutputFormat<?, ?>> void saveAsNewAPIHadoopFiles(String prefix,
            String suffix, Class<?> keyClass, Class<?> valueClass, Class<F> outputFormatClass, Configuration conf) {
        batchFiles("saveAsNewAPIHadoopFiles", prefix, suffix, (rdd, dir) -> rdd.saveAsNewAPIHadoopFile(dir, keyClass,
                valueClass, outputFormatClass, new Configuration(conf == null
                        ? rdd.context().hadoopConfiguration() : conf)));
    }

    // ---- helpers ----------------------------------------------------------------------------------------

    @FunctionalInterface
    interface PairFunction<K, V, K2, V2> {
        JavaPairRDD<K2, V2> apply(JavaPairRDD<K, V> rdd, UserFunctions fns) throws Exception;
    }

    @FunctionalInterface
    interface JoinFunction<K, V, W, R> {
        JavaPairRDD<K, R> apply(JavaPairRDD<K, V> a, JavaPairRDD<K, W> b) throws Exception;
    }

    <U> PairDStream<K, U> byKey(String kind, Object userFunction, PairFunction<K, V, K, U> f) {
        return new PairDStream<>(context, DerivedOperator.<Tuple2<K, V>, Tuple2<K, U>>node(description(), kind, node(),
                userFunction, (rdd, time, fns) -> Rdds.tuples(f.apply(Rdds.pairs(rdd), fns))));
    }

    <W, R> PairDStream<K, R> joined(String kind, PairDStream<K, W> other, JoinFunction<K, V, W, R> f) {
        return new PairDStream<>(context, combine(kind, other, null,
                (JavaRDD<Tuple2<K, V>> a, JavaRDD<Tuple2<K, W>> b, Time time) ->
                        Rdds.tuples(f.apply(Rdds.pairs(a), Rdds.pairs(b)))));
    }
}
