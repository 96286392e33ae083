package io.sluice.rdd.internal;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.OneToOneDependency;
import org.apache.spark.Partition;
import org.apache.spark.Partitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The map side of a local {@link Exchange}: partition i (a part) is one record, the records of input partition
 * i split by {@code partitioner} into one array per output partition (input order kept within each): a
 * {@link Buckets}.
 */
final class BucketedRDD<K, V> extends RDD<Buckets> {
    private static final long serialVersionUID = 1L;
    private static final ClassTag<Buckets> TAG = ClassTag$.MODULE$.apply(Buckets.class);

    private final Partitioner partitioner;

    BucketedRDD(RDD<Tuple2<K, V>> records, Partitioner partitioner) {
        super(records.context(), CollectionConverters.asScala(
                List.<org.apache.spark.Dependency<?>>of(new OneToOneDependency<>(records))).toList(), TAG);
        this.partitioner = partitioner;
    }

    @Override
    public Partition[] getPartitions() {
        return firstParent(ClassTag$.MODULE$.AnyRef()).partitions();
    }

    @Override
    public Iterator<Buckets> compute(Partition split, TaskContext context) {
        int n = partitioner.numPartitions();
        List<List<Object>> lists = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            lists.add(new ArrayList<>());
        }
        Iterator<Object> records = firstParent(ClassTag$.MODULE$.AnyRef()).iterator(split, context);
        // The loop is the iterator's: the JIT compiles the per-record body early, on its own, instead of this
        // method (called twice a batch) with the whole input pipeline inlined, late and at length.
        CollectionConverters.asJava(records).forEachRemaining(
                record -> lists.get(partitioner.getPartition(((Tuple2<?, ?>) record)._1())).add(record));
        Object[][] buckets = new Object[n][];
        for (int i = 0; i < n; i++) {
            buckets[i] = lists.get(i).toArray();
        }
        return CollectionConverters.asScala(List.of(new Buckets(buckets)).iterator());
    }
}
