package io.sluice.rdd.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.rdd.RDD;
import org.apache.spark.scheduler.TaskLocation;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockResult;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.StreamBlockId;
import scala.Option;

/**
 * The cached partitions of a persisted RDD, as the block manager holds them: where a partition is cached (to
 * place a task that reads it there) and, in a task, the partition's records read from its block instead of
 * recomputed. Lets a layer above take what Spark still caches without naming the block manager.
 */
public final class CachedBlocks {
    private CachedBlocks() {
    }

    /** The hosts Spark would run a task reading partition {@code partition} of {@code rdd} on (where it is cached). */
    public static List<String> hostsOf(RDD<?> rdd, int partition) {
        List<String> hosts = new ArrayList<>();
        scala.collection.Iterator<TaskLocation> it = rdd.context().getPreferredLocs(rdd, partition).iterator();
        while (it.hasNext()) {
            hosts.add(it.next().toString());
        }
        return hosts;
    }

    /**
     * Drops the cached block of partition {@code partition} of {@code rdd} from this JVM's block manager (in local
     * mode, where every block is), as the loss of the executor holding it would; a later read computes it again.
     */
    public static void drop(RDD<?> rdd, int partition) {
        SparkEnv.get().blockManager().removeBlock(new RDDBlockId(rdd.id(), partition), true);
    }

    /**
     * The first record of partition {@code partition} of the RDD with id {@code rddId} if a block manager still
     * caches it (this JVM's, or another executor's), else empty; a task then computes the partition instead.
     * Reads the whole block, which releases the block's read lock.
     */
    public static Optional<Object> firstRecord(int rddId, int partition) {
        Option<BlockResult> block =
                SparkEnv.get().blockManager().get(new RDDBlockId(rddId, partition), ClassTags.any());
        if (block.isEmpty()) {
            return Optional.empty();
        }
        scala.collection.Iterator<Object> records = block.get().data();
        Object first = records.hasNext() ? records.next() : null;
        while (records.hasNext()) { // drain, which releases the block's read lock
            records.next();
        }
        return Optional.ofNullable(first);
    }

    /**
     * How many data blocks (cached RDD partitions and received stream blocks) every block manager of {@code sc}
     * holds now, asked from the driver. Broadcast pieces are left out: Spark's cleaner removes them on its own
     * schedule, after the driver's garbage collector lets go of a broadcast.
     */
    public static int count(SparkContext sc) {
        return sc.env().blockManager().master().getMatchingBlockIds(new DataBlocks(), true).size();
    }

    /** The filter travels to every executor's block manager, so it serializes. */
    private static final class DataBlocks extends scala.runtime.AbstractFunction1<BlockId, Object>
            implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(BlockId id) {
            return id.isRDD() || id instanceof StreamBlockId;
        }
    }
}
