package io.sluice.dstream.internal.offline;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.state.internal.checkpoint.SavedState;
import io.sluice.state.internal.checkpoint.StateFile;
import io.sluice.state.internal.HeapBackend;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.checkpoint.PartitionFiles;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The inspector's text: a checkpoint directory's batches, then for one of its checkpoints (the newest by
 * default) the operators, each state's size per partition (keys and bytes) and the source positions. Keys are
 * counted by decoding each partition's files in this JVM, so it needs the application's key and state classes
 * (and their Kryo registrations) on its class path, and no Spark.
 */
public final class CheckpointReport {
    private final CheckpointDirectory directory;

    public CheckpointReport(CheckpointDirectory directory) {
        this.directory = directory;
    }

    /** The report of the checkpoint of {@code batch}, or of the newest one when null. */
    public String render(Time batch) {
        List<CheckpointDirectory.Listed> listed = directory.list();
        StringBuilder out = new StringBuilder();
        out.append("Checkpoint directory ").append(directory.describe()).append('\n');
        if (listed.isEmpty()) {
            throw new IllegalArgumentException("No checkpoint in " + directory.describe() + ": give the directory a "
                    + "job wrote with checkpoint(dir) or getOrCreate(dir, ...)");
        }
        out.append("Batches (").append(listed.size()).append(listed.size() == 1 ? " checkpoint" : " checkpoints")
                .append(", oldest first):\n");
        Checkpoint chosen = null;
        for (CheckpointDirectory.Listed l : listed) {
            out.append("  ").append(show(l.batch()));
            if (l.checkpoint() == null) {
                out.append("  UNUSABLE: ").append(l.problem()).append('\n');
                continue;
            }
            Checkpoint c = l.checkpoint();
            out.append("  pending ").append(c.pending().size());
            for (SavedState s : SavedState.allOf(c)) {
                out.append("  state '").append(s.operatorId()).append("' @ ").append(s.time().milliseconds());
            }
            out.append('\n');
            if (batch == null || l.batch().equals(batch)) {
                chosen = c;
            }
        }
        if (chosen == null) {
            throw new IllegalArgumentException("No usable checkpoint of batch " + (batch == null ? "(any)"
                    : batch.milliseconds()) + " in " + directory.describe());
        }
        out.append("Checkpoint of batch ").append(show(chosen.batchTime())).append(", interval ")
                .append(chosen.batchInterval().toMillis()).append(" ms, next batch ")
                .append(chosen.nextBatchTime().milliseconds()).append('\n');
        out.append("Operators:\n");
        for (Map.Entry<String, String> op : new TreeMap<>(chosen.operators()).entrySet()) { // a stable order
            out.append(String.format(Locale.ROOT, "  %-24s %s", op.getKey(), op.getValue()));
            SavedState.of(chosen, op.getKey()).ifPresent(s -> out.append(String.format(Locale.ROOT,
                    "  state @ %d: %d partitions, %d key groups", s.time().milliseconds(), s.partitions(),
                    s.keyGroups())));
            out.append('\n');
        }
        for (SavedState s : SavedState.allOf(chosen)) {
            sizes(out, s);
        }
        out.append("Source positions:\n");
        if (chosen.sources().isEmpty()) {
            out.append("  none\n");
        }
        for (Checkpoint.SourcePosition p : chosen.sources()) {
            out.append(String.format(Locale.ROOT, "  %-24s batch %d  %s%n", p.operatorId(), p.time().milliseconds(),
                    p.position()));
        }
        return out.toString();
    }

    private void sizes(StringBuilder out, SavedState s) {
        out.append("State of '").append(s.operatorId()).append("' at batch ").append(s.time().milliseconds())
                .append(":\n");
        out.append(String.format(Locale.ROOT, "  %9s %10s %12s  %s%n", "partition", "keys", "bytes", "files"));
        long keys = 0;
        long bytes = 0;
        boolean allCounted = true;
        List<String> problems = new ArrayList<>();
        for (int p = 0; p < s.partitions(); p++) {
            List<StateFile> chain = s.chainOf(p);
            long partBytes = s.filesOf(p).stream().mapToLong(StateFile::length).sum();
            String partKeys;
            try {
                StateVersion<Object, Object> v = PartitionFiles.read(directory.storage().fileSystem(),
                        directory.storage().root(), chain, HeapBackend.INSTANCE);
                keys += v.size();
                partKeys = String.valueOf(v.size());
            } catch (IOException | RuntimeException e) {
                allCounted = false;
                partKeys = "?";
                problems.add("partition " + p + ": " + e.getMessage());
            }
            bytes += partBytes;
            int tables = s.filesOf(p).size() - chain.size();
            out.append(String.format(Locale.ROOT, "  %9d %10s %12d  %s%n", p, partKeys, partBytes, files(chain)
                    + (tables == 0 ? "" : " (RocksDB, " + tables + (tables == 1 ? " table file)" : " table files)"))));
        }
        out.append(String.format(Locale.ROOT, "  %9s %10s %12d%n", "total", allCounted ? keys : "?", bytes));
        for (String problem : problems) {
            out.append("  unreadable ").append(problem).append('\n');
        }
    }

    private static String files(List<StateFile> chain) {
        StateFile snapshot = chain.get(0);
        int deltas = chain.size() - 1;
        return "full @ " + snapshot.time().milliseconds() + (deltas == 0 ? ""
                : " + " + deltas + (deltas == 1 ? " delta" : " deltas") + " to "
                + chain.get(deltas).time().milliseconds());
    }

    private static String show(Time t) {
        return t.milliseconds() + " (" + Instant.ofEpochMilli(t.milliseconds()) + ")";
    }
}
