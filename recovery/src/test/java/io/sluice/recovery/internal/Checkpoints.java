package io.sluice.recovery.internal;

import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checkpoints for tests: a graph with a source and one stateful operator, whose record lists its state as a
 * snapshot plus deltas in the state layer's text (recovery reads it as opaque).
 */
final class Checkpoints {
    static final Duration INTERVAL = Duration.ofSeconds(1);

    private Checkpoints() {
    }

    /** The checkpoint of batch {@code batchMs}, whose state has a snapshot at {@code snapshotMs} and deltas after. */
    static Checkpoint at(long batchMs, long snapshotMs, int partitions) {
        List<OperatorRecord.DataFile> files = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (long t = snapshotMs; t <= batchMs; t += 1000) {
                String kind = t == snapshotMs ? "full" : "delta";
                files.add(new OperatorRecord.DataFile(p + " " + t + " " + kind, 10 + p,
                        CheckpointStore.dataDirectory("counts", new Time(t), kind) + String.format("/part-%05d", p)));
            }
        }
        return new Checkpoint(new Time(batchMs), INTERVAL, new Time(0), List.of(new Time(batchMs + 1000)),
                new Time(batchMs + 2000), Map.of("counts", "mapWithState", "#0-generatorStream", "generatorStream"),
                List.of(new Checkpoint.SourcePosition("#0-generatorStream", new Time(batchMs), "offset " + batchMs)),
                List.of(new OperatorRecord("counts", "mapWithState " + batchMs + " " + partitions + " 128", files)));
    }

    /** Writes the data files {@code checkpoint} references (as executors would), with their recorded lengths. */
    static void writeDataFiles(CheckpointStorage storage, Checkpoint checkpoint) throws java.io.IOException {
        for (OperatorRecord.DataFile f : checkpoint.dataFiles()) {
            if (storage.length(f.path()).isEmpty()) {
                storage.writeAtomically(f.path(), new byte[(int) f.length()]);
            }
        }
    }
}
