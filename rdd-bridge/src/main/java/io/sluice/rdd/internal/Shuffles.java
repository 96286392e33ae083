package io.sluice.rdd.internal;

import org.apache.spark.Partitioner;
import org.apache.spark.rdd.RDD;
import org.apache.spark.rdd.ShuffledRDD;
import org.apache.spark.serializer.Serializer;
import scala.Tuple2;
import scala.reflect.ClassTag;

/** {@code partitionBy} with a chosen serializer, which Spark's Java API does not offer. */
public final class Shuffles {
    private Shuffles() {
    }

    /**
     * {@code records} partitioned by {@code partitioner} (records of a key keep their order), shuffled with
     * {@code serializer} (null: Spark's default) from {@link TaskSlots#packed} map tasks; no shuffle when they
     * are partitioned so already.
     */
    public static <K, V> RDD<Tuple2<K, V>> partitionBy(RDD<Tuple2<K, V>> records, Partitioner partitioner,
            Serializer serializer) {
        if (isPartitionedBy(records, partitioner)) {
            return records;
        }
        ClassTag<K> k = ClassTags.any();
        ClassTag<V> v = ClassTags.any();
        ShuffledRDD<K, V, V> shuffled = new ShuffledRDD<>(TaskSlots.packed(records), partitioner, k, v, v);
        if (serializer != null) {
            shuffled.setSerializer(serializer);
        }
        @SuppressWarnings({"unchecked", "rawtypes"})
        RDD<Tuple2<K, V>> result = (RDD) shuffled;
        return result;
    }

    /** Whether {@code records} are partitioned by {@code partitioner} already. */
    static boolean isPartitionedBy(RDD<?> records, Partitioner partitioner) {
        return records.partitioner().isDefined() && records.partitioner().get().equals(partitioner);
    }
}
