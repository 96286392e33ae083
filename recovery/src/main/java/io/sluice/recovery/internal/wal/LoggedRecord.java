package io.sluice.recovery.internal.wal;

import io.sluice.rdd.Time;

/** One record read back from a write-ahead log: its batch time, where it lives, and its bytes. */
public record LoggedRecord(Time time, RecordHandle handle, byte[] data) {
    public LoggedRecord {
        if (time == null || handle == null || data == null) {
            throw new IllegalArgumentException("a logged record needs a time, a handle and data");
        }
    }
}
