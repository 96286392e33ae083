package io.sluice.state.internal.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.rdd.KeyGroups;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/** A write batch built on the heap is byte for byte the one RocksDB builds, and writes what it says. */
class SerializedWriteBatchTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A key of {@code n} bytes: lengths of 128 and more take two varint bytes. */
    private static byte[] key(int n, char c) {
        byte[] key = new byte[n];
        Arrays.fill(key, (byte) c);
        return key;
    }

    @Test
    void isTheBatchRocksDbBuildsForTheSameRecords() throws Exception {
        RocksStore store = RocksStore.open(new KeyGroups(KeyGroups.DEFAULT_COUNT));
        SerializedWriteBatch ours = new SerializedWriteBatch(0); // grows from its smallest size
        try (WriteBatch theirs = new WriteBatch()) {
            for (int i = 0; i < 300; i++) {
                byte[] key = key(1 + i, (char) ('a' + i % 26));
                byte[] value = key(i * 3, 'v');
                ours.put(store.entries, key, value);
                theirs.put(store.entries, key, value);
                ours.putTimeKey(store.times, 1000L * i, key);
                theirs.put(store.times, RocksCodec.timeKey(1000L * i, key), new byte[0]);
                ours.deleteTimeKey(store.times, Long.MAX_VALUE - i, key);
                theirs.delete(store.times, RocksCodec.timeKey(Long.MAX_VALUE - i, key));
                ours.delete(store.removals, key);
                theirs.delete(store.removals, key);
                ours.delete(store.entries, key);
                theirs.delete(store.entries, key);
            }
            assertEquals(theirs.count(), ours.count());
            assertArrayEquals(theirs.data(), ours.serialized());
        }
    }

    @Test
    void writesItsRecordsAtOnceAndEmptiesItself() throws Exception {
        RocksStore store = RocksStore.open(new KeyGroups(KeyGroups.DEFAULT_COUNT));
        SerializedWriteBatch batch = new SerializedWriteBatch(64);
        batch.put(store.entries, bytes("a"), bytes("1"));
        batch.put(store.entries, bytes("b"), bytes("2"));
        batch.putTimeKey(store.times, 7000, bytes("a"));
        try (WriteOptions options = new WriteOptions()) {
            batch.writeTo(store.db, options);
            assertEquals(0, batch.count());
            assertArrayEquals(bytes("1"), store.db.get(store.entries, bytes("a")));
            assertArrayEquals(new byte[0], store.db.get(store.times, RocksCodec.timeKey(7000, bytes("a"))));

            batch.delete(store.entries, bytes("a"));
            batch.put(store.entries, bytes("b"), bytes("3"));
            batch.writeTo(store.db, options);
        }
        assertNull(store.db.get(store.entries, bytes("a")));
        assertArrayEquals(bytes("3"), store.db.get(store.entries, bytes("b")));
    }
}
