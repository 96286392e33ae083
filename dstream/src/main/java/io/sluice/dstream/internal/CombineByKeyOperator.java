package io.sluice.dstream.internal;

import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Aggregations;
import io.sluice.rdd.internal.ClassTags;
import io.sluice.rdd.internal.Exchange;
import io.sluice.rdd.internal.KeyedMap;
import io.sluice.rdd.internal.Transforms;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import scala.Tuple2;

/**
 * combineByKey of each batch, and reduceByKey (whose combiner is the value). When every task runs in the
 * driver's JVM, each task's records are combined by key, move to their partitions through an {@link Exchange}
 * (no shuffle stage) and are merged per partition in one {@link KeyedMap}; the exchange is released once the
 * batch completed and discarded once the batch is forgotten, so a later read of the batch's RDD exchanges its
 * records again. On a cluster, or when the records are already partitioned so, Spark's combineByKey moves them
 * ({@link Aggregations#combineByKey}), as in Spark Streaming. Either way each key of the batch comes out once,
 * in the partition {@code partitioner} gives it, and the RDD carries that partitioner.
 */
public final class CombineByKeyOperator<K, V, C> extends Operator<Tuple2<K, C>> {
    private final Function<V, C> createCombiner;
    private final Function2<C, V, C> mergeValue;
    private final Function2<C, C, C> mergeCombiners;
    private final Partitioner partitioner;

    private CombineByKeyOperator(Config config, Function<V, C> createCombiner, Function2<C, V, C> mergeValue,
            Function2<C, C, C> mergeCombiners, Partitioner partitioner) {
        super(config);
        this.createCombiner = createCombiner;
        this.mergeValue = mergeValue;
        this.mergeCombiners = mergeCombiners;
        this.partitioner = partitioner;
    }

    /** Describes combineByKey of {@code parent}'s batches ({@code kind} names it: "reduceByKey", ...). */
    public static <K, V, C> Node<Tuple2<K, C>> node(GraphDescription graph, String kind, Node<Tuple2<K, V>> parent,
            List<?> userFunctions, Function<V, C> createCombiner, Function2<C, V, C> mergeValue,
            Function2<C, C, C> mergeCombiners, Partitioner partitioner) {
        return graph.add(kind, CallSite.of(kind), List.of(parent), parent.slide(), null, userFunctions,
                Node.Settings.DEFAULT, config -> new CombineByKeyOperator<>(config, createCombiner, mergeValue,
                        mergeCombiners, partitioner));
    }

    @Override
    protected Optional<JavaRDD<Tuple2<K, C>>> compute(Time time) {
        @SuppressWarnings("unchecked")
        Operator<Tuple2<K, V>> parent = (Operator<Tuple2<K, V>>) parents().get(0);
        return parent.getOrCompute(time).map(rdd -> {
            UserFunctions fns = UserFunctions.building(describe(), time);
            Function<V, C> create = fns.function(createCombiner);
            Function2<C, V, C> merge = fns.function2(mergeValue);
            Function2<C, C, C> combine = fns.function2(mergeCombiners);
            JavaPairRDD<K, V> pairs = Rdds.pairs(rdd);
            if (!Exchange.isLocal(rdd.context()) || Aggregations.isPartitionedBy(pairs, partitioner)) {
                return Rdds.tuples(Aggregations.combineByKey(pairs, create, merge, combine, partitioner));
            }
            Exchange<K, C> exchange = Aggregations.exchangedCombiners(pairs, create, merge, partitioner);
            JavaPairRDD<K, C> moved = new JavaPairRDD<>(exchanged(time, exchange), ClassTags.any(), ClassTags.any());
            return Rdds.tuples(Transforms.mapPartitionsToPair(moved, mergedByKey(combine), true));
        });
    }

    /** A partition's combiners, a key possibly repeated, merged into one record per key. */
    private static <K, C> PairFlatMapFunction<Iterator<Tuple2<K, C>>, K, C> mergedByKey(Function2<C, C, C> f) {
        return records -> {
            KeyedMap<K, C> map = new KeyedMap<>();
            while (records.hasNext()) {
                Tuple2<K, C> r = records.next();
                map.merge(r._1(), r._2(), f);
            }
            return map.records();
        };
    }
}
