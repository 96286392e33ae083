package io.sluice.rdd.internal;

import io.sluice.rdd.KnownCount;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDDLike;
import org.apache.spark.rdd.RDD;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * {@code count()}, {@code collect()} and per-partition actions for every batch without Spark's closure cleaning.
 * Spark cleans the
 * function of every job; for its own count and collect that function is a Scala lambda, and cleaning it reads
 * and parses the bytecode of the class {@code RDD} on every call. These functions are plain named classes,
 * which the cleaner passes over.
 */
public final class Jobs {
    private Jobs() {
    }

    /**
     * The number of records of {@code rdd}, in one job over all its partitions (in local mode, of at most one task
     * per slot: {@link TaskSlots#forActions}), or in none when the RDD knows it ({@link KnownCount}).
     */
    public static long count(RDD<?> rdd) {
        if (rdd instanceof KnownCount known) {
            OptionalLong n = known.knownCount();
            if (n.isPresent()) {
                return n.getAsLong();
            }
        }
        long total = 0;
        for (Object n : perPartition(rdd, new PartitionSize())) {
            total += (Long) n;
        }
        return total;
    }

    /**
     * The records of {@code rdd}, in partition order, in one job over all its partitions (in local mode, of at most
     * one task per slot: {@link TaskSlots#forActions}).
     */
    @SuppressWarnings("unchecked")
    public static <T> List<T> collect(JavaRDDLike<T, ?> rdd) {
        List<T> all = new ArrayList<>();
        for (Object part : perPartition(rdd.rdd(), new PartitionList())) {
            all.addAll((List<T>) part);
        }
        return all;
    }

    /** {@code action}'s result of every partition of {@code rdd}, in partition order, in one job. */
    @SuppressWarnings("unchecked")
    private static List<Object> perPartition(RDD<?> rdd, PartitionAction<Object, Object> action) {
        int tasks = TaskSlots.forActions(rdd);
        if (tasks > 0) {
            return eachPartitionOfEach(List.of(new Work<>((RDD<Object>) rdd, action)), tasks).get(0);
        }
        return eachPartition((RDD<Object>) rdd, action);
    }

    /** Throws {@code e} as it is, checked or not: the task fails with the records' own exception, unwrapped. */
    @SuppressWarnings("unchecked")
    static <E extends Exception> RuntimeException rethrow(Exception e) throws E {
        throw (E) e;
    }

    /**
     * What an action does with one partition's records, in a task: its result goes back to the driver. It is told
     * the partition's index in its RDD and the task attempt's id (unique per attempt, also when one task runs the
     * partitions of several RDDs, see {@link #eachPartitionOfEach}).
     */
    @FunctionalInterface
    public interface PartitionAction<A, U> extends Serializable {
        U apply(int partition, long attempt, java.util.Iterator<A> records) throws Exception;
    }

    /** An RDD and what to do with each of its partitions. */
    public record Work<A, U>(RDD<A> rdd, PartitionAction<A, U> action) {
    }

    /**
     * {@code action} of every partition of {@code rdd}, in one job, in partition order (Spark's {@code
     * foreachPartition}, without cleaning the function: a lambda passed here is shipped as it is). What the action
     * throws fails its task as it is, checked or not, as in {@link #eachPartitionOfEach}.
     */
    @SuppressWarnings("unchecked")
    public static <A, U> List<U> eachPartition(RDD<A> rdd, PartitionAction<A, U> action) {
        List<U> results = new ArrayList<>();
        for (Object r : run(rdd, new JavaAction<>(action))) {
            results.add((U) r);
        }
        return results;
    }

    /**
     * Every work's action on every partition of its RDD, all in one job of at most {@code tasks} tasks: the
     * fixed cost of a Spark job and its result stage is paid once for all of them. Task s runs, in the order of
     * {@code works} and then of partitions, every partition p with {@code p % tasks == s}: partition p of
     * consecutive batches' RDDs, where each depends on the one before (state, windows), runs in one task, in
     * batch order. Returns each work's results in partition order; one failed action fails the job.
     */
    public static List<List<Object>> eachPartitionOfEach(List<Work<?, ?>> works, int tasks) {
        WorkListRDD all = new WorkListRDD(works, tasks);
        Object[] perTask = run(all, new IteratorList());
        List<List<Object>> results = new ArrayList<>();
        for (Work<?, ?> work : works) {
            results.add(new ArrayList<>(java.util.Collections.nCopies(work.rdd().getNumPartitions(), null)));
        }
        for (int s = 0; s < perTask.length; s++) {
            @SuppressWarnings("unchecked")
            List<Object> ran = (List<Object>) perTask[s];
            int next = 0;
            for (int[] item : all.items(s)) {
                results.get(item[0]).set(item[1], ran.get(next++));
            }
        }
        return results;
    }

    /** {@code f} of every partition of {@code rdd}, in partition order. */
    private static <U> Object[] run(RDD<?> rdd, AbstractFunction2<TaskContext, Iterator<Object>, U> f) {
        int partitions = rdd.getNumPartitions();
        List<Object> all = new ArrayList<>(partitions);
        for (int i = 0; i < partitions; i++) {
            all.add(i);
        }
        Object[] results = new Object[partitions];
        @SuppressWarnings("unchecked")
        RDD<Object> any = (RDD<Object>) rdd;
        @SuppressWarnings("unchecked")
        ClassTag<U> tag = (ClassTag<U>) ClassTag$.MODULE$.AnyRef();
        any.context().runJob(any, f, CollectionConverters.asScala(all).toSeq(), new Store<U>(results), tag);
        return results;
    }

    /** A partition's number of records. */
    private static final class PartitionSize implements PartitionAction<Object, Object> {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(int partition, long attempt, java.util.Iterator<Object> records) {
            long n = 0;
            while (records.hasNext()) {
                records.next();
                n++;
            }
            return n;
        }
    }

    /** A partition's records. */
    private static final class PartitionList implements PartitionAction<Object, Object> {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(int partition, long attempt, java.util.Iterator<Object> records) {
            List<Object> out = new ArrayList<>();
            records.forEachRemaining(out::add);
            return out;
        }
    }

    private static final class IteratorList extends AbstractFunction2<TaskContext, Iterator<Object>, List<Object>>
            implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public List<Object> apply(TaskContext context, Iterator<Object> records) {
            List<Object> out = new ArrayList<>();
            while (records.hasNext()) {
                out.add(records.next());
            }
            return out;
        }
    }

    private static final class JavaAction<A, U> extends AbstractFunction2<TaskContext, Iterator<Object>, U>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final PartitionAction<A, U> action;

        JavaAction(PartitionAction<A, U> action) {
            this.action = action;
        }

        @Override
        @SuppressWarnings("unchecked")
        public U apply(TaskContext context, Iterator<Object> records) {
            try {
                return action.apply(context.partitionId(), context.taskAttemptId(),
                        (java.util.Iterator<A>) CollectionConverters.asJava(records));
            } catch (Exception e) {
                throw rethrow(e);
            }
        }
    }

    /** Runs on the driver only, so it need not serialize. */
    private static final class Store<U> extends AbstractFunction2<Object, U, BoxedUnit> {
        private final Object[] results;

        Store(Object[] results) {
            this.results = results;
        }

        @Override
        public synchronized BoxedUnit apply(Object partition, U result) {
            results[(Integer) partition] = result;
            return BoxedUnit.UNIT;
        }
    }
}
