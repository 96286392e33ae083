package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.OperatorRecord;
import java.io.Serializable;
import java.util.Locale;

/**
 * One file of a state checkpoint of one partition at one batch time: a full snapshot (of the entries, or of a
 * RocksDB store: its manifest), a delta, or a table file a RocksDB manifest names (shared between checkpoints).
 *
 * @param time   the batch of the checkpoint that lists it
 * @param path   relative to the checkpoint directory
 * @param length its length in bytes, checked before the file is used (a truncated file is never read)
 */
public record StateFile(int partition, Time time, Kind kind, String path, long length) implements Serializable {
    /** What a file holds; its label in a progress checkpoint is the kind's name in lower case. */
    public enum Kind {
        /** Every entry of the partition, or a RocksDB manifest: what a chain starts from. */
        FULL,
        /** The changes since the file before it in the chain. */
        DELTA,
        /** A RocksDB table file the partition's manifest needs, possibly written by an earlier checkpoint. */
        TABLE;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public StateFile {
        if (partition < 0 || time == null || kind == null || path == null || path.isEmpty() || length < 0) {
            throw new IllegalArgumentException("invalid state file " + path + " (partition " + partition
                    + ", length " + length + ")");
        }
        if (path.startsWith("/") || path.contains("..") || path.contains(" ") || path.contains("\n")) {
            throw new IllegalArgumentException("a state file path must be relative, without spaces or '..': " + path);
        }
    }

    /** Where partition {@code partition}'s file of batch {@code time} goes, in recovery's data directories. */
    public static String pathOf(String operatorId, Time time, boolean full, int partition) {
        return CheckpointStore.dataDirectory(operatorId, time, full ? "full" : "delta")
                + String.format(Locale.ROOT, "/part-%05d", partition);
    }

    /** Whether a chain starts from this file. */
    public boolean full() {
        return kind == Kind.FULL;
    }

    /** This file as a progress checkpoint lists it: label {@code <partition> <batch ms> full|delta|table}. */
    OperatorRecord.DataFile toDataFile() {
        return new OperatorRecord.DataFile(partition + " " + time.milliseconds() + " " + kind.label(), length, path);
    }

    /** The file a progress checkpoint lists; throws naming the file if its label is not a state file's. */
    static StateFile of(OperatorRecord.DataFile file) {
        String[] label = file.label().split(" ");
        Kind kind = null;
        for (Kind k : Kind.values()) {
            if (label.length == 3 && label[2].equals(k.label())) {
                kind = k;
            }
        }
        if (kind == null) {
            throw new IllegalArgumentException("the state file " + file.path() + " has the label '" + file.label()
                    + "', not '<partition> <batch ms> full|delta|table'");
        }
        return new StateFile(Integer.parseInt(label[0]), new Time(Long.parseLong(label[1])), kind, file.path(),
                file.length());
    }
}
