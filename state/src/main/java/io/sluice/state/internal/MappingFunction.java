package io.sluice.state.internal;

import io.sluice.rdd.Time;
import io.sluice.state.State;
import java.io.Serializable;
import org.apache.spark.api.java.Optional;

/**
 * mapWithState's function in the one shape the engine runs: both of {@code StateSpec.function}'s forms adapt
 * to it. It returns the record to emit, or {@link #NONE} for no record (so emitting costs no Optional).
 */
@FunctionalInterface
public interface MappingFunction<K, V, S, M> extends Serializable {
    Object NONE = new Object() {
        @Override
        public String toString() {
            return "<no record>";
        }
    };

    Object call(Time time, K key, Optional<V> value, State<S> state) throws Exception;
}
