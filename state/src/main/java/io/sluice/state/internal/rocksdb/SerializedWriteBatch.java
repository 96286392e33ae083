package io.sluice.state.internal.rocksdb;

import java.util.Arrays;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * A RocksDB write batch built on the Java heap in RocksDB's own serialized format, and handed to RocksDB with one
 * native call: each {@link WriteBatch#put} crosses JNI, and a batch of a state partition's changes has tens of
 * thousands of puts. The format is the one RocksDB writes to its write-ahead log ({@code db/write_batch.cc}), so
 * it does not change between versions: a 12-byte header (sequence, 8 bytes, and record count, 4 bytes, both
 * little-endian), then per record a tag byte (put or delete), the column family's id (varint32; none for the
 * default family), the key and, for a put, the value (each a varint32 length and its bytes). Not thread-safe.
 */
final class SerializedWriteBatch {
    private static final int HEADER = 12;
    private static final byte DELETE = 0x0;
    private static final byte PUT = 0x1;
    private static final byte FAMILY_DELETE = 0x4;
    private static final byte FAMILY_PUT = 0x5;
    private static final byte[] NO_BYTES = new byte[0];

    private byte[] bytes;
    private int length = HEADER;
    private int count;

    SerializedWriteBatch(int capacity) {
        bytes = new byte[Math.max(HEADER + 64, capacity)];
    }

    int count() {
        return count;
    }

    /** Puts {@code value} at {@code key} in {@code family}. */
    void put(ColumnFamilyHandle family, byte[] key, byte[] value) {
        record(PUT, family, key.length + value.length + 10);
        bytes(key);
        bytes(value);
    }

    /** Puts an empty value at the time-index key {@code (time, key)} (see {@link RocksCodec#timeKey}). */
    void putTimeKey(ColumnFamilyHandle family, long time, byte[] key) {
        record(PUT, family, key.length + 14);
        timeKey(time, key);
        bytes(NO_BYTES);
    }

    void delete(ColumnFamilyHandle family, byte[] key) {
        record(DELETE, family, key.length + 5);
        bytes(key);
    }

    /** Deletes the time-index key {@code (time, key)}. */
    void deleteTimeKey(ColumnFamilyHandle family, long time, byte[] key) {
        record(DELETE, family, key.length + 13);
        timeKey(time, key);
    }

    /** Writes the records so far to {@code db} as one atomic batch and empties this one. */
    void writeTo(RocksDB db, WriteOptions options) throws RocksDBException {
        if (count == 0) {
            return;
        }
        try (WriteBatch batch = new WriteBatch(serialized())) {
            db.write(options, batch);
        }
        length = HEADER;
        count = 0;
    }

    /** The records so far in RocksDB's format, as {@link WriteBatch#data()} gives them. */
    byte[] serialized() {
        // bytes 0-7, the sequence, stay 0: RocksDB assigns it when it writes the batch
        bytes[8] = (byte) count;
        bytes[9] = (byte) (count >>> 8);
        bytes[10] = (byte) (count >>> 16);
        bytes[11] = (byte) (count >>> 24);
        return Arrays.copyOf(bytes, length);
    }

    /**
     * Starts a record whose key and value take at most {@code payload} bytes with their lengths. The default
     * column family (id 0) has tags of its own, without the id, as RocksDB writes them.
     */
    private void record(byte tag, ColumnFamilyHandle family, int payload) {
        ensure(1 + 5 + payload);
        int id = family.getID();
        if (id == 0) {
            bytes[length++] = tag;
        } else {
            bytes[length++] = tag == PUT ? FAMILY_PUT : FAMILY_DELETE;
            varint(id);
        }
        count++;
    }

    private void bytes(byte[] b) {
        varint(b.length);
        System.arraycopy(b, 0, bytes, length, b.length);
        length += b.length;
    }

    /** A time-index key as a length-prefixed slice: the time (8 bytes, big-endian), then the key's bytes. */
    private void timeKey(long time, byte[] key) {
        varint(8 + key.length);
        for (int shift = 56; shift >= 0; shift -= 8) {
            bytes[length++] = (byte) (time >>> shift);
        }
        System.arraycopy(key, 0, bytes, length, key.length);
        length += key.length;
    }

    private void varint(int v) {
        while ((v & ~0x7F) != 0) {
            bytes[length++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        bytes[length++] = (byte) v;
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
