package io.sluice.dstream;

import io.sluice.rdd.Time;

/**
 * One key's state in a checkpoint, as {@link CheckpointState#read} gives it and {@link StateBootstrap} takes it:
 * the state and the batch that last updated it (what a {@code mapWithState} timeout counts from).
 *
 * @param <S> state type
 */
public record StateEntry<S>(S state, Time lastUpdate) implements java.io.Serializable {
    public StateEntry {
        if (state == null || lastUpdate == null) {
            throw new IllegalArgumentException("a state entry needs a state and its last update time");
        }
    }
}
