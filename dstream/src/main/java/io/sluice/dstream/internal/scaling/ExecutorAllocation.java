package io.sluice.dstream.internal.scaling;

import io.sluice.rdd.ExecutorLocation;
import java.util.List;

/**
 * The application's executors and the cluster manager's requests: the seam between the autoscaler and Spark
 * (tests give an in-memory one).
 */
public interface ExecutorAllocation {
    /** The executors registered now (never the driver). */
    List<ExecutorLocation> executors();

    /** Asks the cluster manager for {@code total} executors in all; returns whether it acknowledged. */
    boolean requestTotal(int total);

    /** Asks the cluster manager to remove executor {@code executorId} (and not replace it). */
    boolean kill(String executorId);
}
