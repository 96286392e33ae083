package io.sluice.dstream.internal.window;

import io.sluice.dstream.internal.CallSite;
import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.Rdds;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Aggregations;
import io.sluice.rdd.internal.ClassTags;
import io.sluice.rdd.internal.Exchange;
import io.sluice.rdd.internal.KeyedMap;
import io.sluice.rdd.internal.Transforms;
import java.util.List;
import java.util.Optional;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The batches of a {@link ReducedWindowOperator}: each batch reduced by key into one map per partition, kept
 * (deserialized) while it is in the window. The batch's partial reductions reach their partitions through an
 * {@link Exchange} (in local mode without a shuffle stage), released once the batch completed and discarded
 * once the batch is forgotten.
 */
final class BatchReduceOperator<K, V> extends Operator<KeyedMap<K, V>> {
    private final Function2<V, V, V> reduce;
    private final Partitioner partitioner;

    private BatchReduceOperator(Config config, Function2<V, V, V> reduce, Partitioner partitioner) {
        super(config);
        this.reduce = reduce;
        this.partitioner = partitioner;
    }

    static <K, V> Node<KeyedMap<K, V>> node(GraphDescription graph, Node<Tuple2<K, V>> source,
            Function2<V, V, V> reduce, Partitioner partitioner) {
        String kind = "reduceByKey (batches of reduceByKeyAndWindow)";
        Node<KeyedMap<K, V>> node = graph.add(kind, CallSite.of(kind), List.of(source), source.slide(), null,
                List.of(reduce), Node.Settings.DEFAULT.withStorageLevel(StorageLevel.MEMORY_ONLY()).asInternal(),
                config -> new BatchReduceOperator<>(config, reduce, partitioner));
        return node;
    }

    @Override
    protected Optional<JavaRDD<KeyedMap<K, V>>> compute(Time time) {
        @SuppressWarnings("unchecked")
        Operator<Tuple2<K, V>> parent = (Operator<Tuple2<K, V>>) parents().get(0);
        return parent.getOrCompute(time).map(rdd -> {
            Exchange<K, V> exchange = Aggregations.exchangedPartials(Rdds.pairs(rdd), reduce, partitioner);
            JavaPairRDD<K, V> partitioned = new JavaPairRDD<>(exchanged(time, exchange), ClassTags.any(),
                    ClassTags.any());
            return Transforms.mapPartitions(partitioned, KeyedMaps.reducedIntoMap(reduce), true);
        });
    }
}
