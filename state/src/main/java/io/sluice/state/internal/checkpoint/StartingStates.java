package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.Time;
import io.sluice.state.internal.StateVersion;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.spark.api.java.JavaRDD;

/** The restored or planned states that the batch after their time starts from, by that time. */
final class StartingStates<K, S> {
    private final NavigableMap<Time, JavaRDD<StateVersion<K, S>>> byTime = new ConcurrentSkipListMap<>();

    void put(Time time, JavaRDD<StateVersion<K, S>> state) {
        byTime.put(time, state);
    }

    Optional<JavaRDD<StateVersion<K, S>>> after(Time time) {
        return Optional.ofNullable(byTime.get(time));
    }

    /** Drops the states up to {@code oldestKept}, unpersisting those read ahead into memory after a restart. */
    void forgetThrough(Time oldestKept) {
        Map<Time, JavaRDD<StateVersion<K, S>>> old = byTime.headMap(oldestKept, true);
        for (JavaRDD<StateVersion<K, S>> state : old.values()) {
            if (state.getStorageLevel().useMemory()) {
                state.unpersist(false);
            }
        }
        old.clear();
    }
}
