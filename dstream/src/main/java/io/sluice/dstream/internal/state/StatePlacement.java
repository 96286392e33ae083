package io.sluice.dstream.internal.state;

import io.sluice.rdd.ExecutorLocation;
import io.sluice.state.internal.StateRDD;
import java.util.Comparator;
import java.util.List;

/**
 * Where the state partitions of a graph's stateful operators run, once the autoscaler says: partition i on the
 * i-th executor (modulo their number) of the ones it names, so that state spreads over executors as they are
 * added and leaves an executor before it is removed. Until then (and without the autoscaler) it names none and
 * Spark places each partition where its previous version is cached. Read on the driver when a batch's job is
 * submitted; the autoscaler changes it between batches.
 */
public final class StatePlacement implements StateRDD.Placement {
    /** By executor id, numerically for numeric ids. */
    public static final Comparator<ExecutorLocation> ORDER = Comparator
            .comparing((ExecutorLocation e) -> e.executorId().length()).thenComparing(ExecutorLocation::executorId)
            .thenComparing(ExecutorLocation::host);

    private volatile List<ExecutorLocation> executors = List.of();

    /** Places state on {@code executors} from the next job submitted on (none: Spark's default placement). */
    public void placeOn(List<ExecutorLocation> executors) {
        this.executors = executors.stream().sorted(ORDER).toList();
    }

    /** The executors state is placed on, in placement order. */
    public List<ExecutorLocation> executors() {
        return executors;
    }

    @Override
    public List<String> locations(int partition, int partitions) {
        List<ExecutorLocation> on = executors;
        return on.isEmpty() ? List.of() : List.of(on.get(partition % on.size()).toString());
    }
}
