package io.sluice.recovery.internal;

import io.sluice.rdd.Time;
import java.io.Serializable;

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
}
