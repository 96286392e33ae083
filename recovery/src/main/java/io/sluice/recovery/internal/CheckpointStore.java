package io.sluice.recovery.internal;

import io.sluice.rdd.Time;
import io.sluice.recovery.UnusableCheckpointException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The checkpoints of one application in one directory. Layout (relative to the directory):
 *
 * <pre>
 * progress/checkpoint-&lt;batch ms&gt;                     one {@link CheckpointFormat} file per checkpointed batch
 * state/&lt;operator id&gt;/&lt;batch ms&gt;-&lt;suffix&gt;/&lt;file&gt;     data files an operator's record references
 * state/&lt;operator id&gt;/shared-&lt;name&gt;/&lt;batch ms&gt;-&lt;file&gt;  data files several records may reference
 * </pre>
 *
 * The data directories' layout is all recovery knows of data files: the state layer writes its snapshots and
 * deltas there (see {@link #dataDirectory}), and files that several checkpoints share, each uploaded once (see
 * {@link #sharedDirectory}); the directory keeps the name {@code state} of earlier releases.
 * Writing is atomic (temp file and rename) and keeps the newest {@code retained} checkpoints; older ones, and
 * data files no kept checkpoint references, are deleted. Reading tries checkpoints newest first and skips,
 * reporting the file, any that is damaged, truncated, of a newer format, or that references a
 * missing or truncated data file: the application never starts on partial state.
 */
public final class CheckpointStore {
    public static final int DEFAULT_RETAINED = 10;
    public static final String PROGRESS_DIR = "progress";
    public static final String DATA_DIR = "state";
    private static final String PREFIX = "checkpoint-";
    private static final String SHARED = "shared-";

    private final CheckpointStorage storage;
    private final int retained;

    public CheckpointStore(CheckpointStorage storage, int retained) {
        if (retained < 1) {
            throw new IllegalArgumentException("at least one checkpoint must be retained, was " + retained);
        }
        this.storage = storage;
        this.retained = retained;
    }

    public CheckpointStorage storage() {
        return storage;
    }

    /**
     * What reading found: the newest usable checkpoint (if any) and every newer file that was skipped (the
     * caller warns of them).
     */
    public record Recovered(Optional<Checkpoint> checkpoint, String file, List<UnusableCheckpointException> skipped) {
    }

    /**
     * The directory an operator's data files of batch {@code time} go to (executors write them, records reference
     * them). Cleaning deletes such a directory once no kept record references a file in it and its batch is
     * not after the newest checkpoint's.
     *
     * @param suffix what distinguishes directories of one batch (the state layer's {@code full} or {@code delta})
     */
    public static String dataDirectory(String operatorId, Time time, String suffix) {
        return DATA_DIR + "/" + CheckpointFormat.enc(operatorId) + "/" + time.milliseconds() + "-" + suffix;
    }

    /**
     * The directory of an operator's data files that several checkpoints may reference (the table files of a
     * RocksDB state partition). A file in it is named {@code <batch ms>-<name>}, after the batch that first wrote
     * it; cleaning deletes each file on its own, once no kept record references it and its batch is not after the
     * newest checkpoint's.
     */
    public static String sharedDirectory(String operatorId, String name) {
        return DATA_DIR + "/" + CheckpointFormat.enc(operatorId) + "/" + SHARED + name;
    }

    /** Writes the checkpoint of {@code checkpoint.batchTime()}, then deletes what no kept checkpoint needs. */
    public void write(Checkpoint checkpoint) throws IOException {
        write(checkpoint, List.of());
    }

    /**
     * As {@link #write(Checkpoint)}, also keeping the files of {@code inUse}: records the engine may still
     * build on although no kept checkpoint references them yet (the base of a state checkpoint planned for a
     * batch still to run, which a later checkpoint will reference).
     */
    public void write(Checkpoint checkpoint, Collection<OperatorRecord> inUse) throws IOException {
        storage.writeAtomically(fileOf(checkpoint.batchTime()), CheckpointFormat.encode(checkpoint));
        Set<String> keep = new HashSet<>();
        inUse.forEach(r -> r.files().forEach(f -> keep.add(f.path())));
        retain(checkpoint.batchTime(), keep);
    }

    /**
     * The newest usable checkpoint. Empty when the directory holds no checkpoint at all (a first start);
     * throws when it holds checkpoints but none is usable, listing each and why.
     */
    public Recovered latest() throws IOException {
        List<UnusableCheckpointException> skipped = new ArrayList<>();
        for (String file : checkpointFiles()) {
            try {
                Checkpoint c = CheckpointFormat.decode(storage.read(file), storage.describe(file));
                checkDataFiles(c, file);
                return new Recovered(Optional.of(c), storage.describe(file), List.copyOf(skipped));
            } catch (UnusableCheckpointException e) {
                skipped.add(e);
            }
        }
        if (!skipped.isEmpty()) {
            StringBuilder msg = new StringBuilder("No usable checkpoint in " + storage.describe("") + ":");
            for (UnusableCheckpointException e : skipped) {
                msg.append("\n - ").append(e.getMessage());
            }
            msg.append("\nRestore a good copy of the directory, or point the application at an empty directory "
                    + "to start afresh (losing its state and progress).");
            throw new IOException(msg.toString());
        }
        return new Recovered(Optional.empty(), null, List.of());
    }

    private void checkDataFiles(Checkpoint c, String file) throws IOException {
        for (OperatorRecord.DataFile f : c.dataFiles()) {
            OptionalLong length = storage.length(f.path());
            if (length.isEmpty()) {
                throw new UnusableCheckpointException(storage.describe(file), "its data file "
                        + storage.describe(f.path()) + " is missing");
            }
            if (length.getAsLong() != f.length()) {
                throw new UnusableCheckpointException(storage.describe(file), "its data file "
                        + storage.describe(f.path()) + " has " + length.getAsLong() + " bytes, not the "
                        + f.length() + " it was written with");
            }
        }
    }

    /** Checkpoint files, newest first. */
    private List<String> checkpointFiles() throws IOException {
        List<String> files = new ArrayList<>();
        for (String path : storage.listFiles(PROGRESS_DIR)) {
            if (timeOf(path) != null) {
                files.add(path);
            }
        }
        files.sort(Comparator.comparing(CheckpointStore::timeOf).reversed());
        return files;
    }

    private void retain(Time newest, Set<String> inUse) throws IOException {
        List<String> files = checkpointFiles();
        Set<String> referenced = new HashSet<>(inUse);
        for (int i = 0; i < files.size(); i++) {
            if (i >= retained) {
                storage.delete(files.get(i));
                continue;
            }
            try {
                Checkpoint c = CheckpointFormat.decode(storage.read(files.get(i)), files.get(i));
                c.dataFiles().forEach(f -> referenced.add(f.path()));
            } catch (UnusableCheckpointException e) {
                // unusable files reference nothing worth keeping; they age out like the others
            }
        }
        for (String path : storage.listFiles(PROGRESS_DIR)) {
            if (timeOf(path) == null && HadoopFiles.isTemp(name(path))) {
                storage.delete(path); // a temp file a crash left before its rename
            }
        }
        deleteUnreferencedData(referenced, newest);
    }

    /**
     * Deletes data directories (one per operator, batch and suffix) none of whose files a kept checkpoint
     * references or the engine still uses, and the files of shared directories that none references. Files and
     * directories of batches after {@code newest} are being written right now: they stay.
     */
    private void deleteUnreferencedData(Set<String> referenced, Time newest) throws IOException {
        Set<String> dirs = new HashSet<>();
        Set<String> live = new HashSet<>();
        for (String path : storage.listFiles(DATA_DIR)) {
            int slash = path.lastIndexOf('/');
            String dir = path.substring(0, slash);
            if (name(dir).startsWith(SHARED)) {
                Long time = stateDirTime(path);
                if (!referenced.contains(path) && time != null && time <= newest.milliseconds()) {
                    storage.delete(path);
                }
                continue;
            }
            dirs.add(dir);
            if (referenced.contains(path)) {
                live.add(dir);
            }
        }
        for (String dir : dirs) {
            Long time = stateDirTime(dir);
            if (!live.contains(dir) && time != null && time <= newest.milliseconds()) {
                storage.delete(dir);
            }
        }
    }

    private static Long stateDirTime(String dir) {
        String last = name(dir);
        int dash = last.indexOf('-');
        try {
            return dash < 0 ? null : Long.parseLong(last.substring(0, dash));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String fileOf(Time time) {
        return PROGRESS_DIR + "/" + PREFIX + time.milliseconds();
    }

    private static Long timeOf(String path) {
        String n = name(path);
        if (!n.startsWith(PREFIX)) {
            return null;
        }
        try {
            return Long.parseLong(n.substring(PREFIX.length()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
