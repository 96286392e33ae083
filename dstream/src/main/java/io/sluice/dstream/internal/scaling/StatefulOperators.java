package io.sluice.dstream.internal.scaling;

import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.Time;
import java.util.List;

/** What the autoscaler asks of a graph's stateful operators: the seam to the graph (tests give an in-memory one). */
public interface StatefulOperators {
    /** Places state partitions on {@code executors} from the next job submitted on (none: where Spark likes). */
    void placeOn(List<ExecutorLocation> executors);

    /** Whether a partition of some operator's state after batch {@code time} is still on {@code executor}. */
    boolean stateOn(ExecutorLocation executor, Time time);

    /** Gives each operator {@code partitions} state partitions (at most its key groups) from the next batch on. */
    void repartition(int partitions);
}
