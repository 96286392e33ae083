package io.sluice.dstream.internal.offline;

import io.sluice.rdd.Time;
import io.sluice.recovery.UnusableCheckpointException;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.CheckpointFormat;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.HadoopCheckpointStorage;
import io.sluice.state.internal.checkpoint.SavedState;
import io.sluice.state.internal.checkpoint.StateFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;

/**
 * A checkpoint directory read from outside the job that writes it (which may be running): its progress
 * checkpoints, oldest first, and which state checkpoint holds an operator's state at a batch. Every question
 * lists the directory again, so a running job's newer checkpoints are seen and its deleted ones are not.
 */
public final class CheckpointDirectory {
    private static final String PREFIX = "checkpoint-";

    private final String directory;
    private final HadoopCheckpointStorage storage;

    /** One progress checkpoint: decoded, or why it cannot be used. */
    public record Listed(Time batch, String file, Checkpoint checkpoint, String problem) {
    }

    public CheckpointDirectory(String directory, Configuration conf) {
        this.directory = directory;
        try {
            this.storage = new HadoopCheckpointStorage(directory, conf);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the checkpoint directory " + directory + ": "
                    + e.getMessage(), e);
        }
    }

    public HadoopCheckpointStorage storage() {
        return storage;
    }

    /** The directory as messages name it (qualified: which file system). */
    public String describe() {
        return storage.describe("");
    }

    /** Every progress checkpoint, oldest first, the unusable ones with their problem; empty when there is none. */
    public List<Listed> list() {
        List<Listed> listed = new ArrayList<>();
        try {
            for (String path : storage.listFiles(CheckpointStore.PROGRESS_DIR)) {
                String name = path.substring(path.lastIndexOf('/') + 1);
                Long ms = timeOf(name);
                if (ms == null) {
                    continue; // a temp file of a write in progress
                }
                listed.add(decode(new Time(ms), path));
            }
        } catch (IOException e) {
            throw unreadable(e);
        }
        listed.sort(Comparator.comparing(Listed::batch));
        return listed;
    }

    private Listed decode(Time batch, String path) {
        try {
            Checkpoint c = CheckpointFormat.decode(storage.read(path), storage.describe(path));
            return new Listed(batch, storage.describe(path), c, null);
        } catch (UnusableCheckpointException e) {
            return new Listed(batch, storage.describe(path), null, e.getMessage());
        } catch (IOException e) { // deleted by the running job's retention since the listing
            return new Listed(batch, storage.describe(path), null, "it was deleted while being read");
        }
    }

    /** The newest usable checkpoint; fails naming the directory when it holds none. */
    public Checkpoint newest() {
        try {
            return new CheckpointStore(storage, Integer.MAX_VALUE).latest().checkpoint()
                    .orElseThrow(() -> new IllegalArgumentException("No checkpoint in " + describe()
                            + ": give the directory a job wrote with checkpoint(dir) or getOrCreate(dir, ...)"));
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Per batch, the state checkpoint of {@code operator} the usable progress checkpoints reference. */
    public TreeMap<Time, SavedState> statesOf(String operator) {
        TreeMap<Time, SavedState> states = new TreeMap<>();
        for (Listed l : list()) {
            if (l.checkpoint() != null) {
                SavedState.of(l.checkpoint(), operator).ifPresent(s -> states.put(s.time(), s));
            }
        }
        return states;
    }

    /**
     * The state checkpoint of {@code operator} at {@code batch}, or at the newest checkpointed batch when it is
     * null; fails naming the operator, the batch and the directory when there is none.
     */
    public SavedState stateOf(String operator, Time batch) {
        TreeMap<Time, SavedState> states = statesOf(operator);
        if (states.isEmpty() && batches().isEmpty()) {
            newest(); // fails: no checkpoint at all, or none usable (each named with its problem)
        }
        if (states.isEmpty()) {
            throw new IllegalArgumentException("No operator '" + operator + "' has state in the checkpoints of "
                    + describe() + ". Operators with state: " + describeStatefulOperators()
                    + " (an operator's id is its name(...), else '#<position>-<kind>')");
        }
        if (batch == null) {
            return states.lastEntry().getValue();
        }
        SavedState state = states.get(batch);
        if (state == null) {
            throw new IllegalArgumentException("No checkpoint of the state of '" + operator + "' at batch "
                    + batch.milliseconds() + " in " + describe() + "; its state is checkpointed at batches "
                    + states.keySet().stream().map(t -> String.valueOf(t.milliseconds())).toList()
                    + " (every checkpoint interval of the operator, while the job keeps them)");
        }
        return state;
    }

    /** The operators with state in any usable checkpoint, as 'id' (kind), for messages. */
    private String describeStatefulOperators() {
        Map<String, String> kinds = new TreeMap<>();
        for (Listed l : list()) {
            if (l.checkpoint() != null) {
                SavedState.allOf(l.checkpoint()).forEach(s -> kinds.put(s.operatorId(), s.kind()));
            }
        }
        if (kinds.isEmpty()) {
            return "none";
        }
        List<String> described = new ArrayList<>();
        kinds.forEach((id, kind) -> described.add("'" + id + "' (" + kind + ")"));
        return String.join(", ", described);
    }

    /** The batches of the usable progress checkpoints, oldest first. */
    public List<Time> batches() {
        TreeSet<Time> batches = new TreeSet<>();
        for (Listed l : list()) {
            if (l.checkpoint() != null) {
                batches.add(l.batch());
            }
        }
        return List.copyOf(batches);
    }

    /**
     * The first file of {@code state} that is gone (the running job's retention deleted it), if any; fails on a
     * file whose length differs from the one it was written with (damaged).
     */
    public Optional<String> firstMissing(SavedState state) {
        try {
            for (StateFile f : state.files()) {
                OptionalLong length = storage.length(f.path());
                if (length.isEmpty()) {
                    return Optional.of(storage.describe(f.path()));
                }
                if (length.getAsLong() != f.length()) {
                    throw new IllegalStateException("The state file " + storage.describe(f.path()) + " of '"
                            + state.operatorId() + "' at batch " + state.time().milliseconds() + " has "
                            + length.getAsLong() + " bytes, not the " + f.length() + " it was written with: it "
                            + "is damaged");
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    private UncheckedIOException unreadable(IOException e) {
        return new UncheckedIOException("cannot read the checkpoint directory " + directory + ": " + e.getMessage(), e);
    }

    private static Long timeOf(String name) {
        if (!name.startsWith(PREFIX)) {
            return null;
        }
        try {
            return Long.parseLong(name.substring(PREFIX.length()));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
