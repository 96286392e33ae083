package io.sluice.state.internal;

import io.sluice.rdd.SharedKryoSerializer;
import io.sluice.rdd.Shuffles;
import org.apache.spark.Partitioner;
import org.apache.spark.rdd.RDD;
import org.apache.spark.serializer.Serializer;
import scala.Tuple2;

/**
 * Moves a batch's records to the state's partitions: the one shuffle of a stateful batch, the same as Spark's
 * {@code partitionBy} (records of a key keep their order), but, when the context uses Kryo, with a Kryo that
 * does not track references. Reference tracking costs a map insert per object written and a clear of that map
 * after every record; keys and values bound for state are plain values (see the state engine's decision
 * record: they must not contain reference cycles).
 */
public final class StateShuffle {
    private StateShuffle() {
    }

    /** The serializer for state shuffles of this context: Kryo without reference tracking, or null for the default. */
    public static Serializer serializer() {
        return SharedKryoSerializer.untracked();
    }

    /** {@code records} partitioned by {@code partitioner}, shuffled with {@code serializer} (null: the default). */
    public static <K, V> RDD<Tuple2<K, V>> partition(RDD<Tuple2<K, V>> records, Partitioner partitioner,
            Serializer serializer) {
        return Shuffles.partitionBy(records, partitioner, serializer);
    }
}
