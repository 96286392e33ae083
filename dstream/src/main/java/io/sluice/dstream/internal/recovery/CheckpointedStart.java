package io.sluice.dstream.internal.recovery;

import io.sluice.dstream.internal.StartPlan;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.HadoopCheckpointStorage;
import io.sluice.state.internal.checkpoint.StateSnapshotFiles;
import io.sluice.state.internal.checkpoint.StateFile;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.checkpoint.StateCheckpointPlanner;
import io.sluice.state.internal.checkpoint.StateLifecycle;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.checkpoint.StatePrefetch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The start plan of a context with a checkpoint directory: the operators being built take from it the
 * positions and state the recovered checkpoint saved (none on a first start), and every stateful operator an
 * output reaches gets its {@link StateCheckpointPlanner}, which plans its checkpoints and cuts its lineage there.
 */
final class CheckpointedStart implements StartPlan {
    private final JavaSparkContext sc;
    private final String directory;
    private final HadoopCheckpointStorage storage;
    private final Set<String> checkpointed; // stable ids of the stateful operators an output reaches
    private final Checkpoint recovered; // null on a first start
    private final StatePrefetch prefetch;
    private final Map<String, StateCheckpointPlanner<?, ?>> checkpointings = new HashMap<>();
    private final List<List<StateFile>> restoredChains = new ArrayList<>();
    private Broadcast<SerializableConfiguration> conf;

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
     * batch) if the checkpoint saved it under this id and kind, and is checkpointed from then on: its lifecycle
     * is its {@link StateCheckpointPlanner}.
     */
    @Override
    public <K, S> StateLifecycle<K, S> stateOf(String stableId, String kind, String name, KeyGroupPartitioner partitioner,
            Duration slide, StateBackend backend) {
        if (!checkpointed.contains(stableId)) {
            return StateLifecycle.fresh(); // no output reaches it: it never computes a batch
        }
        if (conf == null) {
            conf = SerializableConfiguration.broadcast(sc.sc());
        }
        StateCheckpointPlanner<K, S> checkpoints = new StateCheckpointPlanner<>(sc.sc(), storage.root().toString(),
                storage.fileSystem(), conf, stableId, kind, name, partitioner, backend);
        checkpointings.put(stableId, checkpoints);
        Optional<StateSnapshotFiles> saved = recovered == null ? Optional.empty()
                : StateSnapshotFiles.of(recovered, stableId).filter(s -> s.kind().equals(kind));
        saved.ifPresent(s -> restoredChains.addAll(checkpoints.restore(s, s.time().plus(slide), prefetch).chains()));
        return checkpoints;
    }

    /** The checkpoints of the stateful operator {@code stableId}, if it is checkpointed. */
    @SuppressWarnings("unchecked")
    <K, S> Optional<StateCheckpointPlanner<K, S>> checkpointsOf(String stableId) {
        return Optional.ofNullable((StateCheckpointPlanner<K, S>) checkpointings.get(stableId));
    }

    /** The files every restored state partition was read from. */
    List<List<StateFile>> restoredChains() {
        return restoredChains;
    }
}
