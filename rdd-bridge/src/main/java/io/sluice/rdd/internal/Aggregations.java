package io.sluice.rdd.internal;

import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * By-key aggregations with the semantics of Spark's {@code combineByKey} family, shuffled without a sort:
 * each map task pre-combines in a bounded hash table ({@link PartialAggregator}), the shuffle moves the
 * partial combiners on Spark's bypass path, and the reduce side merges them in Spark's spillable map. The
 * shuffles use {@link SharedKryoSerializer}, so tasks do not each build a Kryo.
 */
public final class Aggregations {
    private Aggregations() {
    }

    public static <K, V> JavaPairRDD<K, V> reduceByKey(JavaPairRDD<K, V> rdd, Function2<V, V, V> f,
            Partitioner partitioner) {
        return combineByKey(rdd, v -> v, f, f, partitioner);
    }

    public static <K, V, C> JavaPairRDD<K, C> combineByKey(JavaPairRDD<K, V> rdd, Function<V, C> createCombiner,
            Function2<C, V, C> mergeValue, Function2<C, C, C> mergeCombiners, Partitioner partitioner) {
        if (isPartitionedBy(rdd, partitioner)) {
            // Already partitioned this way: Spark combines within each partition, no shuffle at all.
            return rdd.combineByKey(createCombiner, mergeValue, mergeCombiners, partitioner);
        }
        int maxEntries = PartialAggregator.DEFAULT_MAX_ENTRIES;
        JavaPairRDD<K, C> partial = Transforms.mapPartitionsToPair(packed(rdd),
                records -> new PartialAggregator<>(records, createCombiner, mergeValue, maxEntries), false);
        return partial.combineByKey(c -> c, mergeCombiners, mergeCombiners, partitioner, false,
                SharedKryoSerializer.ofContext());
    }

    /**
     * reduceByKey's map-side half: each map task's records combined by key with {@code f}, then moved to
     * {@code partitioner}'s partitions without being merged, so a key may occur once per map task. For callers
     * that merge the partials into a structure of their own in one pass (rather than Spark's merge, then theirs).
     * The move is an {@link Exchange}: in local mode without a shuffle stage; the caller {@link Exchange#release}s
     * it once what reads it is computed and persisted.
     */
    public static <K, V> Exchange<K, V> exchangedPartials(JavaPairRDD<K, V> rdd, Function2<V, V, V> f,
            Partitioner partitioner) {
        if (isPartitionedBy(rdd, partitioner)) {
            return Exchange.of(rdd.rdd(), partitioner, null); // already there: not moved
        }
        return exchangedCombiners(rdd, v -> v, f, partitioner);
    }

    /**
     * combineByKey's map-side half, as {@link #exchangedPartials}: each map task's records combined by key into
     * combiners, which move to {@code partitioner}'s partitions unmerged (a key once per map task, or more when a
     * task's table filled). The records are always combined, even when already partitioned so.
     */
    public static <K, V, C> Exchange<K, C> exchangedCombiners(JavaPairRDD<K, V> rdd, Function<V, C> createCombiner,
            Function2<C, V, C> mergeValue, Partitioner partitioner) {
        int maxEntries = PartialAggregator.DEFAULT_MAX_ENTRIES;
        JavaPairRDD<K, C> partials = Transforms.<Tuple2<K, V>, K, C>mapPartitionsToPair(packed(rdd),
                records -> new PartialAggregator<K, V, C>(records, createCombiner, mergeValue, maxEntries), false);
        return Exchange.of(partials.rdd(), partitioner, SharedKryoSerializer.ofContext());
    }

    /** Whether {@code rdd} is already partitioned by {@code partitioner} (its by-key work needs no move). */
    public static boolean isPartitionedBy(JavaPairRDD<?, ?> rdd, Partitioner partitioner) {
        return rdd.partitioner().isPresent() && rdd.partitioner().get().equals(partitioner);
    }

    private static <K, V> JavaPairRDD<K, V> packed(JavaPairRDD<K, V> rdd) {
        return new JavaPairRDD<>(TaskSlots.packed(rdd.rdd()), rdd.kClassTag(), rdd.vClassTag());
    }
}
