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
 * the rocksdb backend. The check costs a comparison per partition and batch (the size is an estimate from the
 * tables' lengths).
 */
final class HeapStateLimit {
    private HeapStateLimit() {
    }

    /**
     * {@code transition}, failing when the heap version it makes outgrows its share of the executor's storage
     * memory ({@code partitionsPerExecutor} state partitions share an executor).
     */
    static <D, R> StateRDD.Transition<Object, D, R> checked(StateRDD.Transition<Object, D, R> transition,
            String operator, Time time, int partitionsPerExecutor) {
        return (previous, data, partition) -> {
            R result = transition.apply(previous, data, partition);
            StateVersion<?, ?> version = StatefulOperator.versionOf(result);
            if (version.backend() == HeapBackend.INSTANCE) {
                long share = BlockStore.storageMemory() / Math.max(1, partitionsPerExecutor);
                if (version.estimatedBytes() > share) {
                    throw new IllegalStateException(operator + ": the state of partition " + partition + " after "
                            + "batch " + time + " holds about " + mb(version.estimatedBytes()) + " MB ("
                            + version.size() + " keys) on the heap, more than this executor can keep in memory ("
                            + mb(BlockStore.storageMemory()) + " MB of Spark storage memory for "
                            + partitionsPerExecutor + " state partitions). Keep the state on local disk with "
                            + StateBackend.SETTING + "=" + StateBackend.ROCKSDB + " (or StateSpec.backend(\""
                            + StateBackend.ROCKSDB + "\") for this operator), or give the executors more memory or "
                            + "the state more partitions.");
                }
            }
            return result;
        };
    }

    private static long mb(long bytes) {
        return bytes >> 20;
    }
}
