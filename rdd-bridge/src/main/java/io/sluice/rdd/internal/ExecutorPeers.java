package io.sluice.rdd.internal;

import io.sluice.rdd.ExecutorLocation;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.storage.BlockManagerId;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The executors a driver knows, from its block manager master (what Spark's own {@code KafkaRDD} asks): Spark's
 * private API, so here.
 */
public final class ExecutorPeers {
    private ExecutorPeers() {
    }

    /** Every executor but the driver, in no particular order; empty in local mode. */
    public static List<ExecutorLocation> of(SparkContext sc) {
        var blocks = sc.env().blockManager();
        List<ExecutorLocation> executors = new ArrayList<>();
        for (BlockManagerId id : CollectionConverters.asJava(blocks.master().getPeers(blocks.blockManagerId()))) {
            executors.add(new ExecutorLocation(id.host(), id.executorId()));
        }
        return executors;
    }
}
