package io.sluice.state.internal;

import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.KeyGroupRange;
import io.sluice.rdd.internal.ClassTags;
import io.sluice.rdd.internal.ParentsPartition;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.Dependency;
import org.apache.spark.NarrowDependency;
import org.apache.spark.Partition;
import org.apache.spark.Partitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The state after one batch, moved to another number of partitions: partition j holds the key groups the new
 * partitioner gives it, gathered whole from the partitions of the previous layout that held them (no key
 * changes group). Partition j depends only on the old partitions whose key groups overlap its own, each read as
 * any batch reads its previous state: from its cached block where it is, and, where a block was lost with its
 * executor, computed again from the state checkpoint files the lineage is cut at (and the batches since).
 *
 * <p>A moved version is compacted (no delta) and its removals are known from its own batch on; the next
 * checkpoint of the state, in the new layout, is a snapshot of every partition.
 */
public final class MovedStateRDD<K, S> extends RDD<StateVersion<K, S>> {
    private static final long serialVersionUID = 1L;

    /** The state version a record of the previous state RDD holds. */
    @FunctionalInterface
    public interface VersionOf<K, S> extends Serializable {
        StateVersion<K, S> of(Object record);
    }

    private RDD<Object> previous;
    private final KeyGroupPartitioner from;
    private final KeyGroupPartitioner to;
    private final VersionOf<K, S> versionOf;

    /**
     * @param previous  the state after a batch, one record per partition, partitioned by {@code to}'s key groups
     * @param to        the layout to move it to (the same key groups, another number of partitions)
     */
    @SuppressWarnings("unchecked")
    public MovedStateRDD(RDD<?> previous, KeyGroupPartitioner to, VersionOf<K, S> versionOf) {
        this((RDD<Object>) previous, to.withPartitions(previous.getNumPartitions()), to, versionOf);
    }

    private MovedStateRDD(RDD<Object> previous, KeyGroupPartitioner from, KeyGroupPartitioner to,
            VersionOf<K, S> versionOf) {
        super(previous.context(), CollectionConverters.asScala(
                List.<Dependency<?>>of(new Sources(previous, from, to))).toList(), ClassTags.any());
        this.previous = previous;
        this.from = from;
        this.to = to;
        this.versionOf = versionOf;
    }

    /** The partitions of {@code from} holding key groups that {@code to} gives partition {@code partition}. */
    static List<Integer> sourcesOf(int partition, KeyGroupPartitioner from, KeyGroupPartitioner to) {
        KeyGroupRange wanted = to.rangeOf(partition);
        List<Integer> sources = new ArrayList<>();
        for (int p = 0; p < from.numPartitions(); p++) {
            if (from.rangeOf(p).overlaps(wanted)) {
                sources.add(p);
            }
        }
        return sources;
    }

    @Override
    public Partition[] getPartitions() {
        Partition[] result = new Partition[to.numPartitions()];
        for (int j = 0; j < result.length; j++) {
            result[j] = new Moved(j, previous, sourcesOf(j, from, to));
        }
        return result;
    }

    @Override
    public Option<Partitioner> partitioner() {
        return Option.apply(to);
    }

    @Override
    public scala.collection.Iterator<StateVersion<K, S>> compute(Partition split, TaskContext context) {
        Moved m = (Moved) split;
        List<StateVersion<K, S>> sources = new ArrayList<>();
        long expected = 0;
        KeyGroupRange wanted = to.rangeOf(m.index());
        for (Partition p : m.sources) {
            scala.collection.Iterator<Object> records = firstParent(ClassTags.any()).iterator(p, context);
            StateVersion<K, S> v = versionOf.of(records.next());
            sources.add(v);
            KeyGroupRange held = from.rangeOf(p.index());
            int shared = Math.min(held.end(), wanted.end()) - Math.max(held.start(), wanted.start());
            expected += (long) v.size() * shared / Math.max(1, held.size());
        }
        StateLoader<K, S> loader = sources.get(0).backend().loader((int) Math.min(expected, 1 << 29),
                sources.get(0).timed());
        int partition = m.index();
        long batchTime = Long.MIN_VALUE;
        for (StateVersion<K, S> v : sources) {
            loader.putEntriesOf(v, hashCode -> to.partitionOfHash(hashCode) == partition);
            batchTime = Math.max(batchTime, v.batchTime());
        }
        StateVersion<K, S> moved = loader.buildMoved(batchTime);
        return CollectionConverters.asScala(List.of(moved).iterator());
    }

    @Override
    public void clearDependencies() {
        super.clearDependencies();
        previous = null;
    }

    /** Partition j of the moved state, carrying the old partitions it gathers from. */
    private static final class Moved extends ParentsPartition {
        private static final long serialVersionUID = 1L;
        private final transient RDD<?> previous;
        private final int[] indices;
        private Partition[] sources;

        Moved(int index, RDD<?> previous, List<Integer> indices) {
            super(index);
            this.previous = previous;
            this.indices = indices.stream().mapToInt(Integer::intValue).toArray();
            refresh();
        }

        @Override
        protected void refresh() {
            if (previous != null) {
                Partition[] all = previous.partitions();
                sources = new Partition[indices.length];
                for (int i = 0; i < indices.length; i++) {
                    sources[i] = all[indices[i]];
                }
            }
        }
    }

    /** Partition j of the moved state depends on the old partitions holding its key groups, within one stage. */
    private static final class Sources extends NarrowDependency<Object> {
        private static final long serialVersionUID = 1L;
        private final KeyGroupPartitioner from;
        private final KeyGroupPartitioner to;

        Sources(RDD<Object> previous, KeyGroupPartitioner from, KeyGroupPartitioner to) {
            super(previous);
            this.from = from;
            this.to = to;
        }

        @Override
        public scala.collection.immutable.Seq<Object> getParents(int partitionId) {
            List<Object> parents = new ArrayList<>(sourcesOf(partitionId, from, to));
            return CollectionConverters.asScala(parents).toList();
        }
    }
}
