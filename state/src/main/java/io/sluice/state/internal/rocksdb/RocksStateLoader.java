package io.sluice.state.internal.rocksdb;

import io.sluice.state.internal.StateLoader;
import io.sluice.state.internal.StateVersion;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * Loads whole entries into a new {@link RocksStore} (an initial state, a checkpoint restored, state moved from
 * other partitions or sent from another executor), in write batches of bounded size; the time index is built from
 * the entries once they are all in.
 */
final class RocksStateLoader<K, S> implements StateLoader<K, S> {
    private static final int CHUNK = 10_000;

    private final RocksBackend backend;
    private final boolean timed;
    private final RocksCodec codec;
    private final RocksStore store;
    private final WriteBatch batch; // made once the store is open (opening it loads RocksDB's native library)
    private int batched;

    RocksStateLoader(RocksBackend backend, boolean timed) {
        this.backend = backend;
        this.timed = timed;
        this.codec = new RocksCodec(backend.groups());
        this.store = RocksStore.open(backend.groups());
        if (!store.claim(store.head())) {
            throw new IllegalStateException("a new RocksDB state store was claimed twice");
        }
        this.batch = new WriteBatch();
    }

    @Override
    public void put(K key, S state, long lastUpdate) {
        try {
            batch.put(store.entries, codec.key(key), codec.value(state, lastUpdate));
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
        written();
    }

    @Override
    public void remove(K key) {
        try {
            batch.delete(store.entries, codec.key(key));
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
        written();
    }

    private void written() {
        if (++batched >= CHUNK) {
            store.write(batch);
            batch.clear();
            batched = 0;
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

    /** Writes what is pending, indexes every entry by its update time, and snapshots the store. */
    private StateVersion<K, S> build(long batchTime, long removalsKnownSince, int changes) {
        store.write(batch);
        batch.clear();
        int size = 0;
        try (RocksIterator it = store.db.newIterator(store.entries); WriteBatch index = new WriteBatch()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                if (timed) {
                    index.put(store.times, RocksCodec.timeKey(RocksCodec.timeOfValue(it.value()), it.key()),
                            new byte[0]);
                }
                if (++size % CHUNK == 0) {
                    store.write(index);
                    index.clear();
                }
            }
            it.status();
            store.write(index);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot index a RocksDB state store: " + e.getMessage(), e);
        }
        batch.close();
        store.knowRemovalsSince(removalsKnownSince);
        RocksStore.Committed committed = store.commit(batchTime, 0, Long.MAX_VALUE);
        return new RocksStateVersion<>(backend, store, committed, batchTime, size, changes < 0 ? size : changes, 0,
                timed);
    }
}
