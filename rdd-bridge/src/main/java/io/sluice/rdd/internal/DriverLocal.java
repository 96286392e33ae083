package io.sluice.rdd.internal;

import java.io.Serializable;
import java.util.Optional;
import java.util.UUID;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockResult;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.storage.TempLocalBlockId;
import org.apache.spark.util.KnownSizeEstimation;
import scala.Option;

/**
 * An object the driver lends to the tasks that run in its own JVM (local mode), without copying it: the handle
 * travels in a task (it is only an id), and {@link #get} returns the very object the driver published when the
 * task runs where the driver's block manager is, and empty anywhere else (an executor in another JVM), where the
 * task does without it. Nothing static links the two sides: the object is a deserialized, memory-only block of
 * the driver's block manager under an id of its own, kept from other executors (the master is not told).
 *
 * <p>The block may be evicted under memory pressure like any other cached block, and is gone once {@link
 * #close closed}: a task must treat "empty" as the ordinary case, never as an error. The block's size is not
 * estimated by walking the object, which can be large and still changing; it counts as a small fixed size.
 */
public final class DriverLocal<T> implements Serializable, AutoCloseable {
    private static final long serialVersionUID = 1L;
    /** What the block counts as in the memory store: the holder, not what it lends. */
    private static final long ESTIMATED_BYTES = 64;

    private final UUID id;

    private DriverLocal(UUID id) {
        this.id = id;
    }

    /**
     * Publishes {@code value} to the tasks of {@code sc} that run in this JVM; on the driver. If the memory store
     * has no room, nothing is published and every task sees empty.
     */
    public static <T> DriverLocal<T> publish(SparkContext sc, T value) {
        DriverLocal<T> local = new DriverLocal<>(UUID.randomUUID());
        sc.env().blockManager().putSingle(local.blockId(), new Holder(value), StorageLevel.MEMORY_ONLY(), false,
                ClassTags.any());
        return local;
    }

    /** The published object if this JVM's block manager holds it, else empty. */
    @SuppressWarnings("unchecked")
    public Optional<T> get() {
        SparkEnv env = SparkEnv.get();
        if (env == null) {
            return Optional.empty();
        }
        Option<BlockResult> block = env.blockManager().getLocalValues(blockId());
        if (block.isEmpty()) {
            return Optional.empty();
        }
        scala.collection.Iterator<Object> values = block.get().data();
        Object holder = values.hasNext() ? values.next() : null;
        while (values.hasNext()) { // drain, which releases the block's read lock
            values.next();
        }
        return holder instanceof Holder h ? Optional.of((T) h.value) : Optional.empty();
    }

    /** Withdraws the object (tasks that start after this see empty); on the driver. */
    @Override
    public void close() {
        SparkEnv env = SparkEnv.get();
        if (env != null && env.blockManager().getStatus(blockId()).isDefined()) { // else evicted, or never stored
            env.blockManager().removeBlock(blockId(), false);
        }
    }

    private BlockId blockId() {
        return new TempLocalBlockId(id);
    }

    @Override
    public String toString() {
        return "DriverLocal(" + id + ")";
    }

    /** The block's one value; sized as itself so the memory store does not walk what it holds. */
    private record Holder(Object value) implements KnownSizeEstimation {
        @Override
        public long estimatedSize() {
            return ESTIMATED_BYTES;
        }
    }
}
