package io.sluice.dstream.internal.recovery;

import io.sluice.dstream.internal.StartPlan;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.HadoopCheckpointStorage;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.checkpoint.CheckpointSite;
import io.sluice.state.internal.checkpoint.CheckpointedState;
import io.sluice.state.internal.checkpoint.StateLifecycle;
import io.sluice.state.internal.checkpoint.StatePrefetch;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The start plan of a context with a checkpoint directory: the operators being built take from it the
 * positions and state the recovered checkpoint saved (none on a first start), and every stateful operator an
 * output reaches gets a {@link CheckpointedState} lifecycle, which restores its state, plans its checkpoints
 * and cuts its lineage there.
 */
final class CheckpointedStart implements StartPlan {
    private final JavaSparkContext sc;
    private final String directory;
    private final HadoopCheckpointStorage storage;
    private final Set<String> checkpointed; // stable ids of the stateful operators an output reaches
    private final Checkpoint recovered; // null on a first start
    private final StatePrefetch prefetch;
    private final Map<String, StateLifecycle<?, ?>> lifecycles = new HashMap<>();
    private CheckpointSite site;

    CheckpointedStart(JavaSparkContext sc, String directory, HadoopCheckpointStorage storage, Set<String> checkpointed,
            Checkpoint recovered, StatePrefetch prefetch) {
        this.sc = sc;
        this.directory = directory;
        this.storage = storage;
        this.checkpointed = Set.copyOf(checkpointed);
        this.recovered = recovered;
        this.prefetch = prefetch;
    }

    @Override
    public String checkpointDirectory() {
        return directory;
    }

    @Override
    public NavigableMap<Time, String> positionsOf(String stableId) {
        if (recovered == null) {
            return Collections.emptyNavigableMap();
        }
        NavigableMap<Time, String> positions = new TreeMap<>();
        for (Checkpoint.SourcePosition p : recovered.sources()) {
            if (p.operatorId().equals(stableId)) {
                positions.put(p.time(), p.position());
            }
        }
        return positions;
    }

    /**
     * The state an output reaches starts from the checkpoint's files (read in parallel, ahead of the first
     * batch) if the checkpoint saved it under this id and kind, and is checkpointed from then on.
     */
    @Override
    public <K, S> StateLifecycle<K, S> stateOf(String stableId, String kind, String name, KeyGroupPartitioner partitioner,
            Duration slide, StateBackend backend) {
        if (!checkpointed.contains(stableId)) {
            return StateLifecycle.fresh(); // no output reaches it: it never computes a batch
        }
        if (site == null) {
            site = new CheckpointSite(sc.sc(), storage.root().toString(), storage.fileSystem(),
                    SerializableConfiguration.broadcast(sc.sc()), prefetch);
        }
        StateLifecycle<K, S> state = CheckpointedState.open(site, stableId, kind, name, partitioner, backend,
                Optional.ofNullable(recovered), slide);
        lifecycles.put(stableId, state);
        return state;
    }

    /** The lifecycle of the stateful operator {@code stableId}'s state, if it is checkpointed. */
    @SuppressWarnings("unchecked")
    <K, S> Optional<StateLifecycle<K, S>> lifecycleOf(String stableId) {
        return Optional.ofNullable((StateLifecycle<K, S>) lifecycles.get(stableId));
    }
}
