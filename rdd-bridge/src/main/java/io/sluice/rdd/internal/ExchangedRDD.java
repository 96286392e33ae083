package io.sluice.rdd.internal;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.NarrowDependency;
import org.apache.spark.Partition;
import org.apache.spark.Partitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import scala.Option;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;

/**
 * The read side of a local {@link Exchange}: partition p is bucket p of every part of the bucketed input, in
 * part order.
 *
 * <p>The first wave of tasks computes the parts between them: task p first asks for the parts j with
 * {@code j % slots == p % slots}, so that tasks running at the same time compute different parts instead of
 * waiting on one another, then reads all of them in order.
 */
final class ExchangedRDD<K, V> extends RDD<Tuple2<K, V>> {
    private static final long serialVersionUID = 1L;

    private final Partitioner partitioner;
    private final int slots;

    ExchangedRDD(RDD<Buckets> buckets, Partitioner partitioner, int slots) {
        super(buckets.context(), CollectionConverters.asScala(
                List.<org.apache.spark.Dependency<?>>of(new AllParents(buckets))).toList(),
                ClassTag$.MODULE$.apply(Tuple2.class));
        this.partitioner = partitioner;
        this.slots = slots;
    }

    @Override
    public Partition[] getPartitions() {
        Partition[] result = new Partition[partitioner.numPartitions()];
        for (int i = 0; i < result.length; i++) {
            result[i] = new Output(i, firstParent(ClassTag$.MODULE$.AnyRef()));
        }
        return result;
    }

    @Override
    public Option<Partitioner> partitioner() {
        return Option.apply(partitioner);
    }

    @Override
    public Iterator<Tuple2<K, V>> compute(Partition split, TaskContext context) {
        RDD<Buckets> parent = firstParent(ClassTag$.MODULE$.apply(Buckets.class));
        Partition[] inputs = ((Output) split).inputs;
        Buckets[] blocks = new Buckets[inputs.length];
        int own = split.index() % slots;
        for (int j = own; j < inputs.length; j += slots) {
            blocks[j] = parent.iterator(inputs[j], context).next();
        }
        for (int j = 0; j < inputs.length; j++) {
            if (blocks[j] == null) {
                blocks[j] = parent.iterator(inputs[j], context).next();
            }
        }
        return new BucketIterator<>(blocks, split.index());
    }

    /** Output partition {@code index}, carrying every partition of its input. */
    private static final class Output extends ParentsPartition {
        private static final long serialVersionUID = 1L;
        private final transient RDD<?> input;
        private Partition[] inputs;

        Output(int index, RDD<?> input) {
            super(index);
            this.input = input;
            refresh();
        }

        @Override
        protected void refresh() {
            if (input != null) {
                inputs = input.partitions();
            }
        }
    }

    /** Bucket {@code p} of each block in turn. */
    private static final class BucketIterator<K, V> extends scala.collection.AbstractIterator<Tuple2<K, V>> {
        private final Buckets[] blocks;
        private final int p;
        private int block;
        private int next;

        BucketIterator(Buckets[] blocks, int p) {
            this.blocks = blocks;
            this.p = p;
        }

        @Override
        public boolean hasNext() {
            while (block < blocks.length && next == blocks[block].bucket(p).length) {
                block++;
                next = 0;
            }
            return block < blocks.length;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Tuple2<K, V> next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            return (Tuple2<K, V>) blocks[block].bucket(p)[next++];
        }
    }

    /** Every output partition depends on every input partition, within one stage. */
    private static final class AllParents extends NarrowDependency<Buckets> {
        private static final long serialVersionUID = 1L;

        AllParents(RDD<Buckets> buckets) {
            super(buckets);
        }

        @Override
        public Seq<Object> getParents(int partitionId) {
            int n = rdd().getNumPartitions();
            Object[] all = new Object[n];
            for (int i = 0; i < n; i++) {
                all[i] = i;
            }
            return CollectionConverters.asScala(Arrays.asList(all)).toList();
        }
    }
}
