package io.sluice.rdd.internal;

import org.apache.spark.Partitioner;
import org.apache.spark.SparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * Records moved to a partitioner's partitions: by a shuffle, or, when every task runs in the driver's JVM
 * ({@code local[n]}), by a local exchange without a stage of its own.
 *
 * <p>In local mode a shuffle only routes records between tasks of one process, yet it costs a stage: map tasks
 * that serialize every record to files, then a second wave of tasks that read them back. A local exchange does
 * the routing inside the consuming stage. The input, read as one part per task slot ({@link TaskSlots#packed}),
 * is split into one bucket per output partition ({@link BucketedRDD}) and kept in the block manager (a
 * {@link LocalCachedRDD}); output partition p reads bucket p of every part ({@link ExchangedRDD}, a narrow
 * dependency on all of them). The block manager computes each part once, in whichever task asks first, and the
 * others wait for it and read the same buckets. Records of a key keep their order within each input partition,
 * as in a shuffle.
 *
 * <p>With executors in other processes, two of them could each compute an input partition, and a
 * non-deterministic input would then be routed inconsistently; there, and when {@link #LOCAL} is false, records
 * are shuffled ({@link Shuffles#partitionBy}). The buckets hold the input's record objects, as a cached RDD
 * does: an input that reuses one mutable object for its records (a Hadoop record reader does) must copy them
 * first, as before {@code persist}.
 *
 * <p>The caller {@link #release}s an exchange once the partitions reading it are computed and persisted; until
 * then its buckets live in storage memory (spilling to disk when it is full).
 */
public final class Exchange<K, V> {
    /** Whether Sluice exchanges records without a shuffle stage in local mode (default true). */
    public static final String LOCAL = "sluice.shuffle.localExchange";

    /** The name of a local exchange's buckets in the block manager, followed by its input's RDD id. */
    public static final String BUCKETS_NAME = "exchange buckets of RDD ";

    private final RDD<Tuple2<K, V>> rdd;
    private final LocalCachedRDD<?> buckets;

    private Exchange(RDD<Tuple2<K, V>> rdd, LocalCachedRDD<?> buckets) {
        this.rdd = rdd;
        this.buckets = buckets;
    }

    /** Whether exchanges in {@code sc} are local: every task runs in its JVM and {@link #LOCAL} is true. */
    public static boolean isLocal(SparkContext sc) {
        return sc.isLocal() && sc.conf().getBoolean(LOCAL, true);
    }

    /**
     * {@code records} moved to {@code partitioner}'s partitions; a shuffle uses {@code serializer} (null: Spark's
     * default). Records already partitioned so are not moved.
     */
    public static <K, V> Exchange<K, V> of(RDD<Tuple2<K, V>> records, Partitioner partitioner,
            Serializer serializer) {
        SparkContext sc = records.context();
        if (!isLocal(sc) || Shuffles.isPartitionedBy(records, partitioner)) {
            return new Exchange<>(Shuffles.partitionBy(records, partitioner, serializer), null);
        }
        BucketedRDD<K, V> bucketed = new BucketedRDD<>(TaskSlots.packed(records), partitioner);
        bucketed.setName(BUCKETS_NAME + records.id());
        LocalCachedRDD<Buckets> buckets = LocalCachedRDD.of(bucketed, StorageLevel.MEMORY_AND_DISK());
        return new Exchange<>(new ExchangedRDD<>(buckets, partitioner, Math.max(1, TaskSlots.of(sc))), buckets);
    }

    /** The records, partitioned by the partitioner. */
    public RDD<Tuple2<K, V>> rdd() {
        return rdd;
    }

    /**
     * Drops a local exchange's buckets; nothing for a shuffle, whose files Spark removes once its RDDs are
     * unreachable. A later recomputation of {@link #rdd()} (a lost block of a partition reading them) again
     * computes each input partition once and keeps its buckets for the others, until {@link #discard}.
     */
    public void release() {
        if (buckets != null) {
            buckets.drop(true);
        }
    }

    /**
     * Drops the buckets again, once nothing will read them (what reads them is itself forgotten): those that a
     * recomputation since {@link #release} kept.
     */
    public void discard() {
        if (buckets != null) {
            buckets.drop(false);
        }
    }
}
