package io.sluice.recovery.internal.wal;

import java.io.Serializable;

/**
 * Where a record lives in a write-ahead log: a segment of the log, the record's offset in it and the length
 * of its data. Small enough to keep in batch metadata and checkpoints ({@link #encode()} / {@link #parse}).
 */
public record RecordHandle(String segment, long offset, int length) implements Serializable {
    public RecordHandle {
        if (segment == null || segment.isEmpty() || segment.indexOf(':') >= 0 || segment.indexOf('/') >= 0) {
            throw new IllegalArgumentException("a write-ahead log segment name must be non-empty, without ':' "
                    + "or '/', was '" + segment + "'");
        }
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("invalid record position " + offset + "+" + length + " in " + segment);
        }
    }

    /** A one-line text form, {@code segment:offset:length}, that {@link #parse} reads back. */
    public String encode() {
        return segment + ":" + offset + ":" + length;
    }

    public static RecordHandle parse(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a write-ahead log record handle: '" + text + "'");
        }
        try {
            return new RecordHandle(parts[0], Long.parseLong(parts[1]), Integer.parseInt(parts[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a write-ahead log record handle: '" + text + "'", e);
        }
    }
}
