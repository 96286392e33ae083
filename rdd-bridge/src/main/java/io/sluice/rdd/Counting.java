package io.sluice.rdd;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * {@code rdd.count()} for every batch without Spark's closure cleaning. Spark cleans the function of every job;
 * for its own count that function is a Scala lambda, and cleaning it reads and parses the bytecode of the
 * class {@code RDD} on every call. These functions are plain named classes, which the cleaner passes over.
 */
public final class Counting {
    private Counting() {
    }

    /** The number of records of {@code rdd}, in one job over all its partitions. */
    public static long count(RDD<?> rdd) {
        int partitions = rdd.getNumPartitions();
        List<Object> all = new ArrayList<>(partitions);
        for (int i = 0; i < partitions; i++) {
            all.add(i);
        }
        Sum sum = new Sum();
        @SuppressWarnings("unchecked")
        RDD<Object> any = (RDD<Object>) rdd;
        any.context().runJob(any, new IteratorSize(), CollectionConverters.asScala(all).toSeq(), sum,
                ClassTag$.MODULE$.apply(Long.class));
        return sum.total;
    }

    private static final class IteratorSize extends AbstractFunction2<TaskContext, Iterator<Object>, Long>
            implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Long apply(TaskContext context, Iterator<Object> records) {
            long n = 0;
            while (records.hasNext()) {
                records.next();
                n++;
            }
            return n;
        }
    }

    /** Runs on the driver only, so it need not serialize. */
    private static final class Sum extends AbstractFunction2<Object, Long, BoxedUnit> {
        private long total;

        @Override
        public synchronized BoxedUnit apply(Object partition, Long count) {
            total += count;
            return BoxedUnit.UNIT;
        }
    }
}
