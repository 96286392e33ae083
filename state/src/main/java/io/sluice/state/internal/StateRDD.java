package io.sluice.state.internal;

import io.sluice.rdd.internal.ClassTags;
import io.sluice.rdd.internal.ParentsPartition;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.Dependency;
import org.apache.spark.OneToOneDependency;
import org.apache.spark.Partition;
import org.apache.spark.Partitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The state RDD of one batch: partition i is one record, computed from partition i of the previous state RDD
 * (if any) and partition i of the batch's data, which is already partitioned like the state (by key group),
 * so that only the batch's data is ever shuffled, never the state.
 *
 * <p>Where a partition's task runs: by default where the previous state's partition is cached (Spark prefers a
 * cached parent's executor). A {@link Placement} overrides that, on the driver, when the job is submitted: to
 * spread the state evenly over the executors, including ones added since, or to move it off an executor about to
 * be removed (the task then reads the previous partition from the executor caching it, once).
 *
 * @param <P> the previous partition record
 * @param <D> data records
 * @param <R> this RDD's partition record
 */
public final class StateRDD<P, D, R> extends RDD<R> {
    private static final long serialVersionUID = 1L;

    /** Computes one partition's record; runs in a task. */
    @FunctionalInterface
    public interface Transition<P, D, R> extends Serializable {
        R apply(P previousOrNull, Iterator<D> data, int partition) throws Exception;
    }

    /** Where partition {@code partition} of {@code partitions} should run (executor locations); empty: anywhere. */
    @FunctionalInterface
    public interface Placement {
        List<String> locations(int partition, int partitions);
    }

    private RDD<P> previous;
    private RDD<D> data;
    private final Transition<P, D, R> transition;
    private final Partitioner partitioner;
    private final transient Placement placement; // the driver's; null: Spark's default

    /** @param previous the previous state RDD, or null for the first batch (the transition then gets null) */
    public StateRDD(RDD<P> previous, RDD<D> data, Partitioner partitioner, Transition<P, D, R> transition) {
        this(previous, data, partitioner, transition, null);
    }

    /** As {@link #StateRDD(RDD, RDD, Partitioner, Transition)}, placed by {@code placement} (null: by Spark). */
    public StateRDD(RDD<P> previous, RDD<D> data, Partitioner partitioner, Transition<P, D, R> transition,
            Placement placement) {
        super(data.context(), dependencies(previous, data), ClassTags.<R>any());
        if (previous != null && previous.getNumPartitions() != partitioner.numPartitions()) {
            throw new IllegalArgumentException("previous state has " + previous.getNumPartitions()
                    + " partitions, the state partitioner " + partitioner.numPartitions());
        }
        if (data.getNumPartitions() != partitioner.numPartitions()) {
            throw new IllegalArgumentException("the batch's data has " + data.getNumPartitions()
                    + " partitions, the state partitioner " + partitioner.numPartitions());
        }
        this.previous = previous;
        this.data = data;
        this.transition = transition;
        this.partitioner = partitioner;
        this.placement = placement;
    }

    private static scala.collection.immutable.Seq<Dependency<?>> dependencies(RDD<?> previous, RDD<?> data) {
        List<Dependency<?>> deps = new ArrayList<>();
        if (previous != null) {
            deps.add(new OneToOneDependency<>(previous));
        }
        deps.add(new OneToOneDependency<>(data));
        return CollectionConverters.asScala(deps).toList();
    }

    @Override
    public Partition[] getPartitions() {
        Partition[] result = new Partition[partitioner.numPartitions()];
        for (int i = 0; i < result.length; i++) {
            result[i] = new StatePartition(i, previous, data);
        }
        return result;
    }

    @Override
    public Option<Partitioner> partitioner() {
        return Option.apply(partitioner);
    }

    @Override
    public scala.collection.immutable.Seq<String> getPreferredLocations(Partition split) {
        List<String> locations = placement == null ? List.of()
                : placement.locations(split.index(), partitioner.numPartitions());
        return CollectionConverters.asScala(locations).toList();
    }

    @Override
    public scala.collection.Iterator<R> compute(Partition split, TaskContext context) {
        StatePartition p = (StatePartition) split;
        P prev = null;
        if (previous != null) {
            scala.collection.Iterator<P> it = previous.iterator(p.previousPartition, context);
            prev = it.hasNext() ? it.next() : null;
        }
        Iterator<D> records = CollectionConverters.asJava(data.iterator(p.dataPartition, context));
        R result;
        try {
            result = transition.apply(prev, records, p.index());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return CollectionConverters.asScala(List.of(result).iterator());
    }

    @Override
    public void clearDependencies() {
        super.clearDependencies();
        previous = null;
        data = null;
    }

    /** Partition i of the state: partition i of the previous state (if any) and of the batch's data. */
    private static final class StatePartition extends ParentsPartition {
        private static final long serialVersionUID = 1L;
        private final transient RDD<?> previous;
        private final transient RDD<?> data;
        private Partition previousPartition;
        private Partition dataPartition;

        StatePartition(int index, RDD<?> previous, RDD<?> data) {
            super(index);
            this.previous = previous;
            this.data = data;
            refresh();
        }

        @Override
        protected void refresh() {
            if (previous != null) {
                previousPartition = previous.partitions()[index()];
            }
            if (data != null) {
                dataPartition = data.partitions()[index()];
            }
        }
    }
}
