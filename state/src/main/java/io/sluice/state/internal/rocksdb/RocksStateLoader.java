package io.sluice.state.internal.rocksdb;

import io.sluice.state.internal.StateLoader;
import io.sluice.state.internal.StateVersion;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * Loads whole entries into a new {@link RocksStore} (an initial state, a checkpoint restored, state moved from
 * other partitions or sent from another executor), in write batches of bounded size; with a timeout the time
 * index is built from the entries once they are all in. Without one no change is logged: the loaded version's
 * changes are known from its own batch on (a delta since an earlier batch is written as a table checkpoint).
 *
 * <p>Made {@link #onto} a version, it applies changes (a checkpoint's deltas after its manifest) to the store that
 * version is the head of, as a batch's writer does, or to a copy of it when a later version was written since: the
 * version itself never changes. It then keeps the count of keys and the time index as it goes, instead of a pass
 * over the whole state.
 */
final class RocksStateLoader<K, S> implements StateLoader<K, S> {
    private static final int CHUNK = 10_000;

    private final RocksBackend backend;
    private final boolean timed;
    private final RocksCodec codec;
    private final RocksStore store;
    private final WriteBatch batch; // made once the store is open (opening it loads RocksDB's native library)
    private int batched;
    /** Onto a version: the values written in {@link #batch} by key (null: removed), and the count of keys. */
    private final Map<ByteBuffer, byte[]> pending;
    private int size;

    RocksStateLoader(RocksBackend backend, boolean timed) {
        this.backend = backend;
        this.timed = timed;
        this.codec = new RocksCodec(backend.groups());
        this.store = RocksStore.open(backend.groups());
        if (!store.claim(store.head())) {
            throw new IllegalStateException("a new RocksDB state store was claimed twice");
        }
        this.batch = new WriteBatch();
        this.pending = null;
    }

    private RocksStateLoader(RocksStateVersion<K, S> from, RocksStore store) {
        this.backend = from.rocksBackend();
        this.timed = from.timed();
        this.codec = new RocksCodec(backend.groups());
        this.store = store;
        this.batch = new WriteBatch();
        this.pending = new HashMap<>();
        this.size = from.size();
    }

    /** A loader holding {@code from}'s entries that writes into its store (claimed) or a copy of its snapshot. */
    static <K, S> RocksStateLoader<K, S> onto(RocksStateVersion<K, S> from) {
        if (from.store == null) {
            return new RocksStateLoader<>(from.rocksBackend(), from.timed());
        }
        if (from.store.claim(from.sequence)) {
            return new RocksStateLoader<>(from, from.store);
        }
        RocksStore copy = RocksStore.copyOf(from.store, from.snapshot, from.removalsKnownSince(), from.timed());
        if (!copy.claim(copy.head())) {
            throw new IllegalStateException("a new RocksDB state store was claimed twice");
        }
        return new RocksStateLoader<>(from, copy);
    }

    @Override
    public void put(K key, S state, long lastUpdate) {
        byte[] k = codec.key(key);
        byte[] value = codec.value(state, lastUpdate);
        try {
            if (pending != null) {
                byte[] old = unindex(k);
                size += old == null ? 1 : 0;
                if (timed) {
                    batch.put(store.times, RocksCodec.timeKey(lastUpdate, k), new byte[0]);
                }
                pending.put(ByteBuffer.wrap(k), value);
            }
            batch.put(store.entries, k, value);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
        written();
    }

    @Override
    public void remove(K key) {
        byte[] k = codec.key(key);
        try {
            if (pending != null) {
                size -= unindex(k) == null ? 0 : 1;
                pending.put(ByteBuffer.wrap(k), null);
            }
            batch.delete(store.entries, k);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
        written();
    }

    /** Onto a version: the key's value before this change (or null), its time index entry deleted. */
    private byte[] unindex(byte[] key) throws RocksDBException {
        ByteBuffer k = ByteBuffer.wrap(key);
        byte[] old = pending.containsKey(k) ? pending.get(k) : store.db.get(store.entries, key);
        if (old != null && timed) {
            batch.delete(store.times, RocksCodec.timeKey(RocksCodec.timeOfValue(old), key));
        }
        return old;
    }

    private void written() {
        if (++batched >= CHUNK) {
            store.write(batch);
            batch.clear();
            batched = 0;
            if (pending != null) {
                pending.clear();
            }
        }
    }

    @Override
    public StateVersion<K, S> build(long batchTime, long removalsKnownSince) {
        return build(batchTime, removalsKnownSince, -1);
    }

    @Override
    public StateVersion<K, S> buildMoved(long batchTime) {
        return build(batchTime, batchTime, 0);
    }

    /** Writes what is pending, indexes every entry by its update time (unless kept as it went), and snapshots. */
    private StateVersion<K, S> build(long batchTime, long removalsKnownSince, int changes) {
        store.write(batch);
        batch.clear();
        if (pending == null) {
            size = index();
            store.compactLoaded();
        }
        store.knowRemovalsSince(timed ? removalsKnownSince : Math.max(removalsKnownSince, batchTime));
        batch.close();
        RocksStore.Committed committed = store.commit(batchTime, 0, Long.MAX_VALUE, timed);
        return new RocksStateVersion<>(backend, store, committed, batchTime, size, changes < 0 ? size : changes, 0,
                timed);
    }

    /** Indexes every entry by its update time (with a timeout); returns the number of entries. */
    private int index() {
        int entries = 0;
        try (RocksIterator it = store.db.newIterator(store.entries); WriteBatch index = new WriteBatch()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                if (timed) {
                    index.put(store.times, RocksCodec.timeKey(RocksCodec.timeOfValue(it.value()), it.key()),
                            new byte[0]);
                }
                if (++entries % CHUNK == 0) {
                    store.write(index);
                    index.clear();
                }
            }
            it.status();
            store.write(index);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot index a RocksDB state store: " + e.getMessage(), e);
        }
        return entries;
    }
}
