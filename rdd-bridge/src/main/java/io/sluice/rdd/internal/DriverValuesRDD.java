package io.sluice.rdd.internal;

import java.io.Serializable;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.Partition;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;

/**
 * A one-partition RDD whose few values the driver computes when a job first needs them (for example the
 * count of another RDD). The values are computed by a nested Spark job on the thread that runs the
 * outer job, which is how Spark's own {@code zipWithIndex} works, and then travel inside the partition.
 *
 * <p>This gives aggregations like {@code DStream.count()} one stage over the data instead of a shuffle,
 * while keeping them lazy: nothing runs until an output operation asks for the batch's result.
 */
public final class DriverValuesRDD<T> extends RDD<T> {
    private final transient Callable<List<T>> values;
    private transient Partition[] computed;

    private DriverValuesRDD(SparkContext sc, Callable<List<T>> values, ClassTag<T> tag) {
        super(sc, scala.collection.immutable.List$.MODULE$.<org.apache.spark.Dependency<?>>empty(), tag);
        this.values = values;
    }

    public static <T> JavaRDD<T> of(SparkContext sc, Callable<List<T>> values) {
        ClassTag<T> tag = ClassTags.any();
        return new JavaRDD<>(new DriverValuesRDD<>(sc, values, tag), tag);
    }

    @Override
    public synchronized Partition[] getPartitions() {
        if (computed == null) {
            try {
                computed = new Partition[] {new ValuesPartition<>(List.copyOf(values.call()))};
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("computing the values of " + name() + " failed: " + e, e);
            }
        }
        return computed;
    }

    // The values are already on the driver: answer the usual actions on them without running a job.

    @Override
    public Object collect() {
        return toArray(values(), Integer.MAX_VALUE);
    }

    @Override
    public Object take(int num) {
        return toArray(values(), num);
    }

    @Override
    public long count() {
        return values().size();
    }

    @Override
    public boolean isEmpty() {
        return values().isEmpty();
    }

    @SuppressWarnings("unchecked")
    private List<T> values() {
        return ((ValuesPartition<T>) getPartitions()[0]).values;
    }

    private Object toArray(List<T> list, int limit) {
        int n = Math.min(Math.max(limit, 0), list.size());
        Object array = elementClassTag().newArray(n);
        for (int i = 0; i < n; i++) {
            java.lang.reflect.Array.set(array, i, list.get(i));
        }
        return array;
    }

    @Override
    public scala.collection.Iterator<T> compute(Partition split, TaskContext context) {
        @SuppressWarnings("unchecked")
        ValuesPartition<T> partition = (ValuesPartition<T>) split;
        return CollectionConverters.asScala(partition.values.iterator());
    }

    private record ValuesPartition<T>(List<T> values) implements Partition, Serializable {
        @Override
        public int index() {
            return 0;
        }
    }
}
