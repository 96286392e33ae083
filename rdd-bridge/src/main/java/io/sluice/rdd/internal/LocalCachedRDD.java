package io.sluice.rdd.internal;

import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.OneToOneDependency;
import org.apache.spark.Partition;
import org.apache.spark.Partitioner;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.BlockResult;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.StorageLevel;
import scala.Option;
import scala.collection.Iterator;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Its parent, cached in local mode without Spark's bookkeeping: each partition, once computed, is kept in this
 * JVM's block manager at a storage level, and not reported to the driver's block manager master.
 *
 * <p>Spark reports every cached block to the master, which posts it to the listener bus. There, Spark's status
 * listener rewrites its record of every persisted RDD holding a block on that executor, for each block stored or
 * removed, and the master's index of block locations is scanned whole on each unpersist. A streaming context
 * keeps dozens of RDDs per operator (remembered batches, a window's batches, a group of replayed batches), so
 * that bookkeeping grows with the square of what is kept and took more CPU than the tasks. In local mode every
 * task runs in the JVM that holds the blocks, so nothing needs the master's index: a task reads the block where
 * it is. Memory is accounted and evicted as for any cached block (spilled to disk if the level allows); a block
 * that is gone is computed again from the parent. Spark's storage page does not list these RDDs.
 *
 * <p>{@link #drop(boolean)} (or unpersisting the RDD) removes the blocks; Spark's context cleaner removes them
 * once the RDD is garbage collected.
 */
public final class LocalCachedRDD<T> extends RDD<T> {
    private static final long serialVersionUID = 1L;

    private final StorageLevel level;

    private LocalCachedRDD(RDD<T> parent, StorageLevel level) {
        super(parent.context(), CollectionConverters.asScala(
                List.<org.apache.spark.Dependency<?>>of(new OneToOneDependency<>(parent))).toList(),
                parent.elementClassTag());
        this.level = level;
        parent.context().cleaner().foreach(cleaner -> {
            cleaner.registerRDDForCleanup(this);
            return null;
        });
    }

    /** Whether RDDs of {@code sc} can be cached so: every task runs in the driver's JVM. */
    public static boolean isAvailable(SparkContext sc) {
        return sc.isLocal();
    }

    /** {@code rdd} cached at {@code level} in this JVM; requires {@link #isAvailable} (local mode). */
    public static <T> LocalCachedRDD<T> of(RDD<T> rdd, StorageLevel level) {
        if (!isAvailable(rdd.context())) {
            throw new IllegalArgumentException("RDDs are cached in the driver's JVM only in local mode, not on "
                    + rdd.context().master());
        }
        LocalCachedRDD<T> cached = new LocalCachedRDD<>(rdd, level);
        cached.setName(rdd.name());
        return cached;
    }

    /** The RDD it caches. */
    public RDD<T> parent() {
        return firstParent(elementClassTag());
    }

    /**
     * Removes its cached blocks, waiting for their removal if {@code wait}; a later read computes them again (and
     * keeps them).
     */
    public void drop(boolean wait) {
        context().unpersistRDD(id(), wait);
    }

    @Override
    public Partition[] getPartitions() {
        return parent().partitions();
    }

    @Override
    public Option<Partitioner> partitioner() {
        return parent().partitioner();
    }

    @Override
    public Seq<String> getPreferredLocations(Partition split) {
        return parent().preferredLocations(split);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Iterator<T> compute(Partition split, TaskContext context) {
        BlockManager blocks = SparkEnv.get().blockManager();
        RDDBlockId block = new RDDBlockId(id(), split.index());
        Option<BlockResult> cached = blocks.getLocalValues(block);
        if (cached.isEmpty()) {
            // Computed only once the block's write lock is held: a task that finds another computing the same
            // block waits for it instead of computing the partition a second time.
            Iterator<T> computed = new Deferred<>(() -> parent().iterator(split, context));
            if (blocks.putIterator(block, computed, level, false, elementClassTag())) {
                cached = blocks.getLocalValues(block);
            }
        }
        // Empty: the partition did not fit at its level, or was evicted at once; then it is computed again.
        return cached.isDefined() ? (Iterator<T>) cached.get().data() : parent().iterator(split, context);
    }

    /** An iterator created on first use. */
    private static final class Deferred<T> extends scala.collection.AbstractIterator<T> {
        private final Supplier<Iterator<T>> create;
        private Iterator<T> records;

        Deferred(Supplier<Iterator<T>> create) {
            this.create = create;
        }

        private Iterator<T> records() {
            if (records == null) {
                records = create.get();
            }
            return records;
        }

        @Override
        public boolean hasNext() {
            return records().hasNext();
        }

        @Override
        public T next() {
            return records().next();
        }
    }
}
