package io.sluice.dstream.internal.state;

import io.sluice.rdd.ExecutorLocation;
import io.sluice.state.internal.StateRDD;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where the state partitions of a graph's stateful operators run: partition i on the i-th executor (modulo their
 * number), by id, so that state is spread evenly over the executors, one partition per executor in turn, and
 * moves when they change (a partition placed elsewhere than its previous version reads it from there, once).
 * The executors are the cluster's live ones, or the ones the autoscaler names (to spread state over executors as
 * they are added and move it off one before it is removed). None (local mode): Spark places each partition where
 * its previous version is cached. Taken on the driver when a batch's state RDD is made.
 */
public final class StatePlacement {
    /** By executor id, numerically for numeric ids. */
    public static final Comparator<ExecutorLocation> ORDER = Comparator
            .comparing((ExecutorLocation e) -> e.executorId().length()).thenComparing(ExecutorLocation::executorId)
            .thenComparing(ExecutorLocation::host);

    private final Supplier<List<ExecutorLocation>> live;
    private volatile List<ExecutorLocation> named; // the autoscaler's; null: the live executors

    /** @param live the cluster's executors, asked once per batch (empty in local mode) */
    public StatePlacement(Supplier<List<ExecutorLocation>> live) {
        this.live = live;
    }

    /** Places state on {@code executors} from the next batch on (instead of every live executor). */
    public void placeOn(List<ExecutorLocation> executors) {
        this.named = sorted(executors);
    }

    /** The executors state is placed on now, in placement order. */
    public List<ExecutorLocation> executors() {
        List<ExecutorLocation> on = named;
        return on != null ? on : sorted(live.get());
    }

    /** The placement of one batch's state partitions: on {@link #executors()} as they are now. */
    public StateRDD.Placement forBatch() {
        return over(executors());
    }

    /** The placement of one batch's state partitions on {@code on} (as {@link #executors()} gave them). */
    public static StateRDD.Placement over(List<ExecutorLocation> on) {
        return (partition, partitions) -> on.isEmpty() ? List.of() : List.of(on.get(partition % on.size()).toString());
    }

    private static List<ExecutorLocation> sorted(List<ExecutorLocation> executors) {
        return executors.stream().sorted(ORDER).toList();
    }
}
