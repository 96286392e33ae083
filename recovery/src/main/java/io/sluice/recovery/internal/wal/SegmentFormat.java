package io.sluice.recovery.internal.wal;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The bytes of a segment file. A header (magic {@code SLWA}, format version), then records, each
 * {@code [int length][long time ms][data][int crc32c of length, time and data]}, big-endian.
 *
 * <p>A reader that meets a version newer than its own refuses the segment instead of guessing.
 */
final class SegmentFormat {
    static final int MAGIC = 0x534C5741; // "SLWA"
    static final int VERSION = 1;
    static final int HEADER_BYTES = 8;
    static final int RECORD_OVERHEAD = 16;
    /** Larger lengths can only be garbage; a receiver block is a few MB at most. */
    static final int MAX_RECORD_BYTES = 1 << 30;

    private SegmentFormat() {
    }

    static byte[] header() {
        return ByteBuffer.allocate(HEADER_BYTES).putInt(MAGIC).putInt(VERSION).array();
    }

    static byte[] encode(byte[] data, long timeMillis) {
        if (data.length > MAX_RECORD_BYTES - RECORD_OVERHEAD) {
            throw new IllegalArgumentException("a write-ahead log record holds at most "
                    + (MAX_RECORD_BYTES - RECORD_OVERHEAD) + " bytes, was " + data.length);
        }
        ByteBuffer buf = ByteBuffer.allocate(RECORD_OVERHEAD + data.length);
        buf.putInt(data.length).putLong(timeMillis).put(data);
        buf.putInt(crc(buf.array(), RECORD_OVERHEAD - 4 + data.length));
        return buf.array();
    }

    static int crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }

    /** Reads and checks a header; returns the version, or throws naming the segment. */
    static int readHeader(DataInputStream in, String segment) throws IOException {
        int magic;
        int version;
        try {
            magic = in.readInt();
            version = in.readInt();
        } catch (EOFException e) {
            return -1;
        }
        if (magic != MAGIC) {
            throw new IOException("write-ahead log segment " + segment + " does not start with Sluice's header "
                    + "(not a log segment, or damaged); move it out of the log directory");
        }
        if (version > VERSION) {
            throw new IOException("write-ahead log segment " + segment + " has format version " + version
                    + ", newer than this Sluice's " + VERSION + ": it was written by a newer release");
        }
        return version;
    }

    /** One record as read from a file; {@code null} from {@link #readRecord} means the segment's end. */
    record Read(long timeMillis, byte[] data, boolean checksumOk) {
    }

    /**
     * Reads the record at the stream's position, which is {@code remaining} bytes before the end of the file.
     * Returns null if the rest of the file is too short to hold the record (a torn tail).
     */
    static Read readRecord(DataInputStream in, long remaining) throws IOException {
        if (remaining < RECORD_OVERHEAD) {
            return null;
        }
        int length = in.readInt();
        long time = in.readLong();
        if (length < 0 || length > MAX_RECORD_BYTES || RECORD_OVERHEAD + (long) length > remaining) {
            return null;
        }
        byte[] all = new byte[RECORD_OVERHEAD + length];
        ByteBuffer.wrap(all).putInt(length).putLong(time);
        in.readFully(all, 12, length + 4);
        int stored = ByteBuffer.wrap(all, 12 + length, 4).getInt();
        byte[] data = new byte[length];
        System.arraycopy(all, 12, data, 0, length);
        return new Read(time, data, stored == crc(all, 12 + length));
    }
}
