package io.sluice.dstream;

import io.sluice.rdd.Time;
import io.sluice.dstream.internal.DerivedOperator;
import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.OutputOperation;
import io.sluice.dstream.internal.Rdds;
import io.sluice.dstream.internal.UserFunctions;
import io.sluice.dstream.internal.sink.TextFileSink;
import io.sluice.rdd.internal.Aggregations;
import io.sluice.rdd.internal.Jobs;
import io.sluice.rdd.internal.Transforms;
import io.sluice.rdd.internal.DriverValuesRDD;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaRDDLike;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.api.java.function.Function3;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.api.java.function.PairFunction;
import org.apache.spark.api.java.function.VoidFunction;
import org.apache.spark.api.java.function.VoidFunction2;
import scala.Tuple2;

/**
 * What every stream offers, whichever view of a batch its functions get: {@link DStream} hands them a
 * {@code JavaRDD<T>}, {@link PairDStream} a {@code JavaPairRDD<K, V>}, exactly as Spark Streaming's
 * {@code JavaDStreamLike} does for {@code JavaDStream} and {@code JavaPairDStream}, so that code such as
 * {@code counts.transformToPair(rdd -> rdd.sortByKey(false))} or {@code pairs.foreachRDD(rdd ->
 * rdd.collectAsMap())} compiles unchanged. Operations that keep the stream's own type (filter, cache, window,
 * ...) live in the two subclasses.
 *
 * @param <T> the element type
 * @param <R> the RDD view user functions receive
 */
public abstract class DStreamLike<T, R extends JavaRDDLike<T, R>> {
    final StreamingContext context;
    private final Node<T> node;

    DStreamLike(StreamingContext context, Node<T> node) {
        this.context = context;
        this.node = node;
    }

    /** How this stream's user functions see a batch's RDD. */
    abstract R view(JavaRDD<T> rdd);

    /** This stream's description: what the API records before start. */
    Node<T> node() {
        return node;
    }

    /** This stream's running operator, once the context started. */
    Operator<T> operator() {
        return context.lifecycle.operatorOf(node);
    }

    GraphDescription description() {
        return context.description;
    }

    public StreamingContext context() {
        return context;
    }

    /** How often this stream produces an RDD. */
    public Duration slideDuration() {
        return node.slide();
    }

    // ---- element-wise ---------------------------------------------------------------------------------

    public <U> DStream<U> map(Function<T, U> f) {
        return derive("map", f, (rdd, fns) -> Transforms.map(rdd, fns.function(f)));
    }

    public <U> DStream<U> flatMap(FlatMapFunction<T, U> f) {
        return derive("flatMap", f, (rdd, fns) -> Transforms.flatMap(rdd, fns.flatMap(f)));
    }

    public <U> DStream<U> mapPartitions(FlatMapFunction<Iterator<T>, U> f) {
        return derive("mapPartitions", f, (rdd, fns) -> Transforms.mapPartitions(rdd, fns.flatMap(f), false));
    }

    public <K, V> PairDStream<K, V> mapToPair(PairFunction<T, K, V> f) {
        return derivePairs("mapToPair", f, (rdd, fns) -> Transforms.mapToPair(rdd, fns.pair(f)));
    }

    public <K, V> PairDStream<K, V> flatMapToPair(PairFlatMapFunction<T, K, V> f) {
        return derivePairs("flatMapToPair", f, (rdd, fns) -> Transforms.flatMapToPair(rdd, fns.pairFlatMap(f)));
    }

    public <K, V> PairDStream<K, V> mapPartitionsToPair(PairFlatMapFunction<Iterator<T>, K, V> f) {
        return derivePairs("mapPartitionsToPair", f, (rdd, fns) -> Transforms.mapPartitionsToPair(rdd, fns.pairFlatMap(f), false));
    }

    /** Each partition of each batch as one list. */
    public DStream<List<T>> glom() {
        return derive("glom", null, (rdd, fns) -> rdd.glom());
    }

    // ---- aggregations, one element (or none) per batch ------------------------------------------------

    /** The number of records in each batch, as a one-element RDD (one stage; no shuffle). */
    public DStream<Long> count() {
        return derive("count", null,
                (rdd, fns) -> DriverValuesRDD.of(rdd.context(), () -> List.of(Jobs.count(rdd.rdd()))));
    }

    /** Each batch reduced to one element; an empty batch gives an empty RDD. */
    public DStream<T> reduce(Function2<T, T, T> f) {
        return derive("reduce", f, (rdd, fns) -> {
            Function2<T, T, T> g = fns.function2(f);
            return DriverValuesRDD.of(rdd.context(), () -> {
                List<T> partials = Jobs.collect(Transforms.mapPartitions(rdd, (Iterator<T> it) -> {
                    if (!it.hasNext()) {
                        return java.util.Collections.<T>emptyIterator();
                    }
                    T acc = it.next();
                    while (it.hasNext()) {
                        acc = g.call(acc, it.next());
                    }
                    return List.of(acc).iterator();
                }, false));
                if (partials.isEmpty()) {
                    return List.of();
                }
                T acc = partials.get(0);
                for (int i = 1; i < partials.size(); i++) {
                    acc = g.call(acc, partials.get(i));
                }
                return List.of(acc);
            });
        });
    }

    /** How often each distinct element occurs in each batch. */
    public PairDStream<T, Long> countByValue() {
        return countByValue(context.sparkContext().defaultParallelism());
    }

    public PairDStream<T, Long> countByValue(int numPartitions) {
        return derivePairs("countByValue", null,
                (rdd, fns) -> Aggregations.reduceByKey(Transforms.mapToPair(rdd, x -> new Tuple2<>(x, 1L)), Long::sum,
                        new HashPartitioner(numPartitions)));
    }

    // ---- arbitrary RDD functions ------------------------------------------------------------------------
    // These functions run on the driver, once per batch, and no checkpoint stores them: unlike the functions
    // shipped to tasks they are not checked for serializability, so they may capture driver-only objects.

    public <U> DStream<U> transform(Function<R, JavaRDD<U>> f) {
        return new DStream<>(context, DerivedOperator.node(description(), "transform", node, null,
                (rdd, time, fns) -> f.call(view(rdd))));
    }

    public <U> DStream<U> transform(Function2<R, Time, JavaRDD<U>> f) {
        return new DStream<>(context, DerivedOperator.node(description(), "transform", node, null,
                (rdd, time, fns) -> f.call(view(rdd), time)));
    }

    public <K, V> PairDStream<K, V> transformToPair(Function<R, JavaPairRDD<K, V>> f) {
        return new PairDStream<>(context, DerivedOperator.<T, Tuple2<K, V>>node(description(), "transformToPair", node,
                null, (rdd, time, fns) -> Rdds.tuples(f.call(view(rdd)))));
    }

    public <K, V> PairDStream<K, V> transformToPair(Function2<R, Time, JavaPairRDD<K, V>> f) {
        return new PairDStream<>(context, DerivedOperator.<T, Tuple2<K, V>>node(description(), "transformToPair", node,
                null, (rdd, time, fns) -> Rdds.tuples(f.call(view(rdd), time))));
    }

    public <U, W> DStream<W> transformWith(DStream<U> other, Function3<R, JavaRDD<U>, Time, JavaRDD<W>> f) {
        return new DStream<>(context, combine("transformWith", other, null, (a, b, time) -> f.call(view(a), b, time)));
    }

    public <K2, V2, W> DStream<W> transformWith(PairDStream<K2, V2> other,
            Function3<R, JavaPairRDD<K2, V2>, Time, JavaRDD<W>> f) {
        return new DStream<>(context, combine("transformWith", other, null,
                (a, b, time) -> f.call(view(a), Rdds.pairs(b), time)));
    }

    public <U, K2, V2> PairDStream<K2, V2> transformWithToPair(DStream<U> other,
            Function3<R, JavaRDD<U>, Time, JavaPairRDD<K2, V2>> f) {
        return new PairDStream<>(context, combine("transformWithToPair", other, null,
                (a, b, time) -> Rdds.tuples(f.call(view(a), b, time))));
    }

    public <K2, V2, K3, V3> PairDStream<K3, V3> transformWithToPair(PairDStream<K2, V2> other,
            Function3<R, JavaPairRDD<K2, V2>, Time, JavaPairRDD<K3, V3>> f) {
        return new PairDStream<>(context, combine("transformWithToPair", other, null,
                (a, b, time) -> Rdds.tuples(f.call(view(a), Rdds.pairs(b), time))));
    }

    // ---- past batches -----------------------------------------------------------------------------------

    /**
     * The RDDs of the batches in [from, to], oldest first (from the remembered ones, or computed). As in Spark
     * Streaming, a time between two of this stream's batches stands for the batch before it.
     */
    public List<R> slice(Time from, Time to) {
        if (context.getState() != StreamingContextState.ACTIVE) {
            throw new IllegalStateException("slice() needs a started context");
        }
        List<R> result = new ArrayList<>();
        Operator<T> operator = operator();
        for (JavaRDD<T> rdd : operator.slice(onSlideGrid(operator, from).minus(operator.slide()),
                onSlideGrid(operator, to))) {
            result.add(view(rdd));
        }
        return result;
    }

    /** The latest time of this stream's batch grid (zero time plus whole slides) that is not after {@code time}. */
    private static Time onSlideGrid(Operator<?> operator, Time time) {
        return operator.grid().floor(time);
    }

    /**
     * This stream's RDD for one batch time, computing it if needed; null when the stream has none at that time (it
     * is not on the slide), as Spark Streaming's {@code JavaDStream.compute} returns it, so ported code compiles
     * and behaves unchanged.
     */
    public R compute(Time time) {
        return operator().getOrCompute(time).map(this::view).orElse(null);
    }

    // ---- windows that change the element type (see internal/window) ---------------------------------------

    /**
     * The number of elements in each window, as a one-element RDD; computed incrementally (counts of the
     * batches entering and leaving). As in Spark Streaming, windows before the first element are empty
     * RDDs, and a window whose elements have all left counts 0.
     */
    public DStream<Long> countByWindow(Duration window, Duration slide) {
        return map(x -> 1L).reduceByWindow(Long::sum, (a, b) -> a - b, window, slide);
    }

    /** Each window reduced to one element (an empty window gives an empty RDD): reduces every batch once. */
    public DStream<T> reduceByWindow(Function2<T, T, T> f, Duration window, Duration slide) {
        return reduce(f).window(window, slide).reduce(f);
    }

    /**
     * Each window reduced to one element, incrementally: the previous window's value, {@code invF} the batches
     * that left, {@code f} those that entered. Once a value exists it stays (possibly the "zero" of f), even
     * when every element has left; before any element, windows are empty RDDs.
     */
    public DStream<T> reduceByWindow(Function2<T, T, T> f, Function2<T, T, T> invF, Duration window,
            Duration slide) {
        PairDStream<Integer, T> keyed = mapToPair(x -> new Tuple2<>(1, x));
        return keyed.reduceByKeyAndWindow(f, invF, window, slide, 1, null).map(Tuple2::_2);
    }

    /** How often each distinct element occurs in each window; elements whose count drops to 0 disappear. */
    public PairDStream<T, Long> countByValueAndWindow(Duration window, Duration slide) {
        return countByValueAndWindow(window, slide, context.sparkContext().defaultParallelism());
    }

    public PairDStream<T, Long> countByValueAndWindow(Duration window, Duration slide, int numPartitions) {
        PairDStream<T, Long> ones = mapToPair(x -> new Tuple2<>(x, 1L));
        return ones.reduceByKeyAndWindow(Long::sum, (a, b) -> a - b, window, slide, numPartitions,
                (Tuple2<T, Long> kv) -> kv._2() != 0L);
    }


    // ---- output operations ------------------------------------------------------------------------------

    public void foreachRDD(VoidFunction<R> f) {
        output("foreachRDD", (rdd, time) -> f.call(view(rdd)));
    }

    public void foreachRDD(VoidFunction2<R, Time> f) {
        output("foreachRDD", (rdd, time) -> f.call(view(rdd), time));
    }

    /** Prints the first ten elements of every batch. */
    public void print() {
        print(10);
    }

    public void print(int num) {
        output("print", (rdd, time) -> {
            List<T> first = rdd.take(num + 1);
            StringBuilder out = new StringBuilder();
            out.append("-------------------------------------------\n");
            out.append("Time: ").append(time.milliseconds()).append(" ms\n");
            out.append("-------------------------------------------\n");
            for (int i = 0; i < Math.min(num, first.size()); i++) {
                out.append(first.get(i)).append('\n');
            }
            if (first.size() > num) {
                out.append("...\n");
            }
            System.out.println(out);
        });
    }

    /**
     * Saves each batch as text files in the directory {@code prefix-<batch ms>[.suffix]}. The directory is
     * committed atomically: a re-run batch replaces its directory instead of adding to it.
     */
    public void saveAsTextFiles(String prefix, String suffix) {
        output("saveAsTextFiles", new TextFileSink<>(prefix, suffix));
    }

    /**
     * Any per-batch file output, committed exactly once like {@link #saveAsTextFiles}: {@code writer} writes
     * the batch's RDD into the directory it is given (e.g. {@code (rdd, dir) -> rdd.saveAsObjectFile(dir)}),
     * which is then renamed to {@code prefix-<batch ms>[.suffix]}; a batch run again replaces its directory.
     */
    public void saveAsBatchFiles(String prefix, String suffix, VoidFunction2<R, String> writer) {
        batchFiles("saveAsBatchFiles", prefix, suffix, writer);
    }

    /** An output that writes each batch into a staging directory, committed as {@code prefix-<batch ms>[.suffix]}. */
    void batchFiles(String kind, String prefix, String suffix, VoidFunction2<R, String> writer) {
        output(kind, (rdd, time) -> io.sluice.dstream.internal.sink
                .BatchFileCommit.commit(rdd.context().hadoopConfiguration(), TextFileSink.batchPath(prefix, suffix, time),
                        staging -> writer.call(view(rdd), staging)));
    }

    // ---- helpers ----------------------------------------------------------------------------------------

    private void output(String kind, OutputOperation.Action<T> action) {
        description().addOutput(node, kind, action);
    }

    /** One RDD per batch holding every stream's RDD of that batch (all streams must have the same slide). */
    static <T> Node<T> unionOf(StreamingContext context, List<? extends DStreamLike<T, ?>> streams) {
        if (streams.isEmpty()) {
            throw new IllegalArgumentException("union needs at least one stream");
        }
        List<Node<?>> parents = new ArrayList<>();
        streams.forEach(s -> parents.add(s.node()));
        JavaSparkContext sc = context.sparkContext();
        return DerivedOperator.<T>node(context.description, "union", parents, List.of(), (rdds, time, fns) -> {
            @SuppressWarnings("unchecked")
            JavaRDD<T>[] all = rdds.toArray(JavaRDD[]::new);
            return sc.union(all);
        });
    }

    @FunctionalInterface
    interface RddFunction<A, B> {
        JavaRDD<B> apply(JavaRDD<A> rdd, UserFunctions fns) throws Exception;
    }

    @FunctionalInterface
    interface PairRddFunction<A, K, V> {
        JavaPairRDD<K, V> apply(JavaRDD<A> rdd, UserFunctions fns) throws Exception;
    }

    @FunctionalInterface
    interface TwoRddFunction<A, B, C> {
        JavaRDD<C> apply(JavaRDD<A> a, JavaRDD<B> b, Time time) throws Exception;
    }

    <U> DStream<U> derive(String kind, Object userFunction, RddFunction<T, U> f) {
        return new DStream<>(context, DerivedOperator.node(description(), kind, node, userFunction,
                (rdd, time, fns) -> f.apply(rdd, fns)));
    }

    <K, V> PairDStream<K, V> derivePairs(String kind, Object userFunction, PairRddFunction<T, K, V> f) {
        return new PairDStream<>(context, DerivedOperator.<T, Tuple2<K, V>>node(description(), kind, node, userFunction,
                (rdd, time, fns) -> Rdds.tuples(f.apply(rdd, fns))));
    }

    <U, W> Node<W> combine(String kind, DStreamLike<U, ?> other, Object userFunction, TwoRddFunction<T, U, W> f) {
        List<Node<?>> parents = List.of(node, other.node());
        List<Object> userFunctions = userFunction == null ? List.of() : List.of(userFunction);
        return DerivedOperator.node(description(), kind, parents, userFunctions, (rdds, time, fns) -> {
            @SuppressWarnings("unchecked")
            JavaRDD<T> a = (JavaRDD<T>) rdds.get(0);
            @SuppressWarnings("unchecked")
            JavaRDD<U> b = (JavaRDD<U>) rdds.get(1);
            return f.apply(a, b, time);
        });
    }
}
