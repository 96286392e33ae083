package io.sluice.dstream.internal;

import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.Time;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.checkpoint.StateLifecycle;
import java.time.Duration;
import java.util.Collections;
import java.util.NavigableMap;

/**
 * What operators are built with besides their description: the checkpoint directory and what a restart
 * restores (sources' saved positions, stateful operators' state and how their lineage is cut). The recovery
 * layer implements it; {@link #FRESH} is a start without checkpoint directory.
 */
public interface StartPlan {
    StartPlan FRESH = new StartPlan() {
        @Override
        public String checkpointDirectory() {
            return null;
        }

        @Override
        public NavigableMap<Time, String> positionsOf(String stableId) {
            return Collections.emptyNavigableMap();
        }

        @Override
        public <K, S> StateLifecycle<K, S> stateOf(String stableId, String kind, String name,
                KeyGroupPartitioner partitioner, Duration slide, StateBackend backend) {
            return StateLifecycle.fresh();
        }
    };

    /** The checkpoint directory, or null when the context has none. */
    String checkpointDirectory();

    /** The positions the checkpoint saved for the source {@code stableId}, oldest first; empty if none. */
    NavigableMap<Time, String> positionsOf(String stableId);

    /**
     * The lifecycle of the stateful operator {@code stableId}'s state: where it starts, and whether its
     * checkpoints are planned (and its lineage cut there); restored state is loaded into {@code backend}.
     */
    <K, S> StateLifecycle<K, S> stateOf(String stableId, String kind, String name, KeyGroupPartitioner partitioner,
            Duration slide, StateBackend backend);
}
