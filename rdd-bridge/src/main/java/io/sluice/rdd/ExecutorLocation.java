package io.sluice.rdd;

import io.sluice.rdd.internal.ExecutorPeers;
import java.io.Serializable;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.SparkContext;

/**
 * An executor as a task's preferred location: {@link #toString()} is Spark's executor location
 * ({@code executor_<host>_<id>}), which the scheduler matches to that executor, not only its host. For sources
 * that want each partition read by the same executor batch after batch (cached consumers), as Spark's Kafka
 * connector places them.
 */
public record ExecutorLocation(String host, String executorId) implements Serializable {
    /**
     * The executors of {@code sc} (not the driver; none in local mode), sorted as Spark's {@code KafkaRDD} sorts
     * them: by host, then executor id, both descending.
     */
    public static List<ExecutorLocation> executors(SparkContext sc) {
        return ExecutorPeers.of(sc).stream().sorted(Comparator.comparing(ExecutorLocation::host)
                .thenComparing(ExecutorLocation::executorId).reversed()).toList();
    }

    @Override
    public String toString() {
        return "executor_" + host + "_" + executorId;
    }
}
