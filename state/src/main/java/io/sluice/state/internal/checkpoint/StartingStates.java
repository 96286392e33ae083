package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.Time;
import io.sluice.state.internal.StateVersion;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;

/** The restored or planned states that the batch after their time starts from, by that time. */
final class StartingStates<K, S> {
    private final BatchTimeMap<JavaRDD<StateVersion<K, S>>> byTime = new BatchTimeMap<>();

    void put(Time time, JavaRDD<StateVersion<K, S>> state) {
        byTime.put(time, state);
    }

    Optional<JavaRDD<StateVersion<K, S>>> after(Time time) {
        return byTime.get(time);
    }

    /** Drops the states up to {@code oldestKept}, unpersisting those read ahead into memory after a restart. */
    void forgetThrough(Time oldestKept) {
        for (JavaRDD<StateVersion<K, S>> state : byTime.forgetThrough(oldestKept).values()) {
            if (state.getStorageLevel().useMemory()) {
                state.unpersist(false);
            }
        }
    }
}
