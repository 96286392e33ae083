package io.sluice.samples.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every benchmark workload, in table order. To add one, see docs/benchmark.md. */
public final class Workloads {
    private static final List<Workload> ALL = List.of(
            new EmptyBatches(),
            new WordCountWorkload(),
            new MapWithStateWorkload(),
            new MapWithStateLargeStateWorkload(),
            new StateMemoryWorkload(),
            FlinkComparison.heap(),
            FlinkComparison.rocksDb(),
            new UpdateStateWorkload(),
            WindowedCounts.w4(),
            WindowedCounts.w4Window60(),
            new RestartTime(),
            new CheckpointBytes(),
            IncrementalCheckpointBytes.w6r(),
            ScalingWorkload.stateGrowth(),
            ScalingWorkload.scaleOut(),
            LargeStateWorkload.fromProperties(),
            ScalingWorkload.replay(),
            // ingestion (R) workloads after W7.
            new SocketIngestion(),
            KafkaIngestion.count(),
            KafkaIngestion.mapWithState(),
            new LatencyWorkload()
    );

    private Workloads() {
    }

    public static List<Workload> all() {
        return ALL;
    }

    /** A registered workload, or one of its {@link Workload#steps()} (which the benchmark forks by their ids). */
    public static Workload byId(String id) {
        for (Workload w : ALL) {
            if (w.id().equalsIgnoreCase(id.trim())) {
                return w;
            }
            for (Workload step : w.steps()) {
                if (step.id().equalsIgnoreCase(id.trim())) {
                    return step;
                }
            }
        }
        throw new IllegalArgumentException("no workload '" + id + "'; known: " + ids());
    }

    /** The workloads named in a comma-separated list, in the list's order; all of them for a blank list. */
    public static List<Workload> select(String commaSeparatedIds) {
        if (commaSeparatedIds == null || commaSeparatedIds.isBlank()) {
            return ALL;
        }
        Map<String, Workload> chosen = new LinkedHashMap<>();
        for (String id : commaSeparatedIds.split(",")) {
            if (!id.isBlank()) {
                Workload w = byId(id);
                chosen.put(w.id(), w);
            }
        }
        return List.copyOf(chosen.values());
    }

    static List<String> ids() {
        List<String> ids = new ArrayList<>();
        ALL.forEach(w -> ids.add(w.id()));
        return ids;
    }
}
