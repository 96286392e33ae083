package io.sluice.dstream.internal;

import io.sluice.rdd.Time;
import io.sluice.state.internal.StateVersion;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;

/**
 * Where a stateful operator's state starts and how its lineage is cut, fixed when it is built.
 *
 * @param restoredTime the batch whose state was restored (the next batch starts from {@code restored}), or null
 * @param restored     one state version per state partition, or null
 * @param planner      plans the state checkpoints (and cuts the lineage there), or null: the operator then cuts
 *                     its state RDDs' lineage itself, with Spark's checkpoints
 */
public record StateStart<K, S>(Time restoredTime, JavaRDD<StateVersion<K, S>> restored, Planner<K, S> planner) {

    /** Plans the checkpoint of batch {@code time} whose state RDD is {@code state}; returns the state to go on from. */
    @FunctionalInterface
    public interface Planner<K, S> {
        JavaRDD<StateVersion<K, S>> plan(Time time, RDD<?> state);
    }

    public static <K, S> StateStart<K, S> fresh() {
        return new StateStart<>(null, null, null);
    }
}
