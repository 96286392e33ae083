package io.sluice.dstream.internal.state;

import io.sluice.rdd.Time;
import io.sluice.rdd.internal.BlockStore;
import io.sluice.state.internal.HeapBackend;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.StateRDD;
import io.sluice.state.internal.StateVersion;

/**
 * Fails a batch whose heap state cannot stay in the executors' memory, with a message that says what to change,
 * instead of letting the executor run out of heap. The state of a partition is kept cached in Spark's storage
 * memory; when a partition's tables, times the partitions of its executor, outgrow that memory, the state is
 * larger than the heap backend can hold, and the batch fails naming the operator, the batch and the setting of
 * the rocksdb backend.
 *
 * <p>The check runs twice. Before the transition it projects the partition's size while the batch runs: the
 * previous version plus what growing its table allocates ({@link StateVersion#growthBytes}; a growing table holds
 * its old and its new arrays at once), so that a batch fails with this message rather than with the JVM's
 * OutOfMemoryError in the middle of that growth. After the transition it checks the new version. Each costs a
 * comparison per partition and batch (the sizes are estimates from the tables' lengths).
 */
final class HeapStateLimit {
    private HeapStateLimit() {
    }

    /**
     * {@code transition}, failing when the heap state it starts from or makes outgrows its share of the executor's
     * storage memory ({@code partitionsPerExecutor} state partitions share an executor).
     */
    static <D, R> StateRDD.Transition<Object, D, R> checked(StateRDD.Transition<Object, D, R> transition,
            String operator, Time time, int partitionsPerExecutor) {
        return (previous, data, partition) -> {
            if (previous != null) {
                StateVersion<?, ?> before = StatefulOperator.versionOf(previous);
                long projected = before.estimatedBytes() + before.growthBytes();
                if (before.backend() == HeapBackend.INSTANCE && projected > share(partitionsPerExecutor)) {
                    throw tooLarge(operator + ": the state of partition " + partition + " after batch "
                            + Time.ofMillis(before.batchTime()) + " holds about " + mb(before.estimatedBytes())
                            + " MB (" + before.size() + " keys) on the heap, and growing its table in batch " + time
                            + " would take " + mb(before.growthBytes()) + " MB more", partitionsPerExecutor);
                }
            }
            R result = transition.apply(previous, data, partition);
            StateVersion<?, ?> version = StatefulOperator.versionOf(result);
            if (version.backend() == HeapBackend.INSTANCE && version.estimatedBytes() > share(partitionsPerExecutor)) {
                throw tooLarge(operator + ": the state of partition " + partition + " after batch " + time
                        + " holds about " + mb(version.estimatedBytes()) + " MB (" + version.size() + " keys) on the "
                        + "heap", partitionsPerExecutor);
            }
            return result;
        };
    }

    /** A partition's share of its executor's storage memory. */
    private static long share(int partitionsPerExecutor) {
        return BlockStore.storageMemory() / Math.max(1, partitionsPerExecutor);
    }

    private static IllegalStateException tooLarge(String state, int partitionsPerExecutor) {
        return new IllegalStateException(state + ", more than this executor can keep in memory ("
                + mb(BlockStore.storageMemory()) + " MB of Spark storage memory for " + partitionsPerExecutor
                + " state partitions). Keep the state on local disk with " + StateBackend.SETTING + "="
                + StateBackend.ROCKSDB + " (or StateSpec.backend(\"" + StateBackend.ROCKSDB + "\") for this "
                + "operator), or give the executors more memory or the state more partitions.");
    }

    private static long mb(long bytes) {
        return bytes >> 20;
    }
}
