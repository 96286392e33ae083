package io.sluice.dstream.internal.scaling;

import io.sluice.rdd.ExecutorLocation;
import java.util.List;
import org.apache.spark.SparkContext;
import scala.collection.immutable.Map$;

/**
 * {@link ExecutorAllocation} through SparkContext's developer API ({@code requestTotalExecutors},
 * {@code killExecutor}), which a coarse-grained scheduler backend serves: standalone, YARN, Kubernetes and
 * {@code local-cluster}, not {@code local[n]}.
 */
public final class SparkExecutorAllocation implements ExecutorAllocation {
    private final SparkContext sc;

    public SparkExecutorAllocation(SparkContext sc) {
        this.sc = sc;
    }

    @Override
    public List<ExecutorLocation> executors() {
        return ExecutorLocation.executors(sc);
    }

    @Override
    public boolean requestTotal(int total) {
        return sc.requestTotalExecutors(total, 0, Map$.MODULE$.empty());
    }

    /** Spark kills it even while it runs a task (which then runs again elsewhere); the autoscaler waits for a gap. */
    @Override
    public boolean kill(String executorId) {
        return sc.killExecutor(executorId);
    }
}
