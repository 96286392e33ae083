package io.sluice.state.internal;

import io.sluice.rdd.Time;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import java.io.Serializable;
import org.apache.spark.api.java.Optional;
import org.apache.spark.api.java.function.Function3;
import org.apache.spark.api.java.function.Function4;

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

    /**
     * The function of {@code spec} in this shape: a {@code Function4} (time-aware, emitting what it returns if
     * present) or a {@code Function3} (emitting exactly one record per call).
     */
    @SuppressWarnings("unchecked")
    static <K, V, S, M> MappingFunction<K, V, S, M> of(StateSpec<K, V, S, M> spec) {
        Object f = spec.userFunction();
        if (f instanceof Function4<?, ?, ?, ?, ?> f4) {
            Function4<Time, K, Optional<V>, State<S>, Optional<M>> timed =
                    (Function4<Time, K, Optional<V>, State<S>, Optional<M>>) f4;
            return (time, key, value, state) -> {
                Optional<M> out = timed.call(time, key, value, state);
                return out != null && out.isPresent() ? out.get() : NONE;
            };
        }
        Function3<K, Optional<V>, State<S>, M> plain = (Function3<K, Optional<V>, State<S>, M>) f;
        return (time, key, value, state) -> plain.call(key, value, state);
    }
}
