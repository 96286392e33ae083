package io.sluice.rdd.internal;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.Dependency;
import org.apache.spark.NarrowDependency;
import org.apache.spark.Partition;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import scala.collection.Iterator;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;

/**
 * The job of {@link Jobs#eachPartitionOfEach}: partition s runs, one after the other, the actions of the
 * works' partitions p with {@code p % tasks == s}, and yields one result per such partition. It depends narrowly
 * on every work's RDD, so the partitions it runs are computed within its own tasks.
 */
final class WorkListRDD extends RDD<Object> {
    private static final long serialVersionUID = 1L;

    private final Jobs.PartitionAction<?, ?>[] actions;
    private final int[] partitionCounts;
    private final int tasks;

    WorkListRDD(List<Jobs.Work<?, ?>> works, int tasks) {
        super(works.get(0).rdd().context(), dependencies(works, slots(works, tasks)), ClassTag$.MODULE$.AnyRef());
        this.tasks = slots(works, tasks);
        this.actions = new Jobs.PartitionAction<?, ?>[works.size()];
        this.partitionCounts = new int[works.size()];
        for (int w = 0; w < works.size(); w++) {
            actions[w] = works.get(w).action();
            partitionCounts[w] = works.get(w).rdd().getNumPartitions();
        }
    }

    private static int slots(List<Jobs.Work<?, ?>> works, int tasks) {
        int most = 1;
        for (Jobs.Work<?, ?> work : works) {
            most = Math.max(most, work.rdd().getNumPartitions());
        }
        return Math.max(1, Math.min(tasks, most));
    }

    private static Seq<Dependency<?>> dependencies(List<Jobs.Work<?, ?>> works, int tasks) {
        List<Dependency<?>> deps = new ArrayList<>();
        for (Jobs.Work<?, ?> work : works) {
            deps.add(new Strided<>(work.rdd(), tasks));
        }
        return CollectionConverters.asScala(deps).toList();
    }

    /** Task {@code s}'s items, in the order it runs them: {work index, partition}. */
    List<int[]> items(int s) {
        List<int[]> items = new ArrayList<>();
        for (int w = 0; w < partitionCounts.length; w++) {
            for (int p = s; p < partitionCounts[w]; p += tasks) {
                items.add(new int[] {w, p});
            }
        }
        return items;
    }

    @Override
    public Partition[] getPartitions() {
        Partition[] result = new Partition[tasks];
        List<RDD<?>> parents = new ArrayList<>();
        for (int w = 0; w < actions.length; w++) {
            parents.add(dependencies().apply(w).rdd());
        }
        for (int s = 0; s < tasks; s++) {
            result[s] = new Slot(s, items(s), parents);
        }
        return result;
    }

    @Override
    public Seq<String> getPreferredLocations(Partition split) {
        Slot slot = (Slot) split;
        if (slot.parents.length == 0) {
            return CollectionConverters.asScala(List.<String>of()).toList();
        }
        return dependencies().apply(slot.items[0][0]).rdd().preferredLocations(slot.parents[0]);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Iterator<Object> compute(Partition split, TaskContext context) {
        Slot slot = (Slot) split;
        List<Object> results = new ArrayList<>(slot.items.length);
        for (int i = 0; i < slot.items.length; i++) {
            int w = slot.items[i][0];
            RDD<Object> rdd = (RDD<Object>) dependencies().apply(w).rdd();
            Jobs.PartitionAction action = actions[w];
            try {
                results.add(action.apply(slot.items[i][1], context.taskAttemptId(),
                        CollectionConverters.asJava(rdd.iterator(slot.parents[i], context))));
            } catch (Exception e) {
                throw Jobs.rethrow(e); // as in a job over that RDD alone: a user function's exception stays its own
            }
        }
        return CollectionConverters.asScala(results.iterator());
    }

    /** One task's partitions of the works' RDDs, re-read when it ships (a cut lineage changes them). */
    private static final class Slot extends ParentsPartition {
        private static final long serialVersionUID = 1L;
        private final int[][] items;
        private final transient List<RDD<?>> rdds;
        private Partition[] parents;

        Slot(int index, List<int[]> items, List<RDD<?>> rdds) {
            super(index);
            this.items = items.toArray(int[][]::new);
            this.rdds = rdds;
            refresh();
        }

        @Override
        protected void refresh() {
            if (rdds != null) {
                parents = new Partition[items.length];
                for (int i = 0; i < items.length; i++) {
                    parents[i] = rdds.get(items[i][0]).partitions()[items[i][1]];
                }
            }
        }
    }

    /** Partition s of the work list depends on partitions s, s + tasks, s + 2 tasks... of one work's RDD. */
    private static final class Strided<T> extends NarrowDependency<T> {
        private static final long serialVersionUID = 1L;
        private final int tasks;

        Strided(RDD<T> rdd, int tasks) {
            super(rdd);
            this.tasks = tasks;
        }

        @Override
        public Seq<Object> getParents(int partitionId) {
            List<Object> parents = new ArrayList<>();
            for (int p = partitionId; p < rdd().getNumPartitions(); p += tasks) {
                parents.add(p);
            }
            return CollectionConverters.asScala(parents).toList();
        }
    }
}
