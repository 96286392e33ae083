package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.OperatorRecord;
import java.io.Serializable;
import java.util.Locale;

/**
 * One file of a state checkpoint: a full snapshot or a delta of one partition at one batch time.
 *
 * @param path   relative to the checkpoint directory
 * @param length its length in bytes, checked before the file is used (a truncated file is never read)
 */
public record StateFile(int partition, Time time, boolean full, String path, long length) implements Serializable {
    public StateFile {
        if (partition < 0 || time == null || path == null || path.isEmpty() || length < 0) {
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

    /** This file as a progress checkpoint lists it: label {@code <partition> <batch ms> full|delta}. */
    OperatorRecord.DataFile toDataFile() {
        return new OperatorRecord.DataFile(partition + " " + time.milliseconds() + (full ? " full" : " delta"), length,
                path);
    }

    /** The file a progress checkpoint lists; throws naming the file if its label is not a state file's. */
    static StateFile of(OperatorRecord.DataFile file) {
        String[] label = file.label().split(" ");
        if (label.length != 3 || !(label[2].equals("full") || label[2].equals("delta"))) {
            throw new IllegalArgumentException("the state file " + file.path() + " has the label '" + file.label()
                    + "', not '<partition> <batch ms> full|delta'");
        }
        return new StateFile(Integer.parseInt(label[0]), new Time(Long.parseLong(label[1])),
                label[2].equals("full"), file.path(), file.length());
    }
}
