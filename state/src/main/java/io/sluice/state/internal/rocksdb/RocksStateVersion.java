package io.sluice.state.internal.rocksdb;

import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.StateWriter;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;
import org.apache.spark.TaskContext;
import org.apache.spark.util.KnownSizeEstimation;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;

/**
 * A state partition after one batch in a {@link RocksStore}: a RocksDB snapshot, so it reads the same whatever
 * the store holds later. On the heap it is a handle of a few dozen bytes (what Spark's memory store counts); the
 * data is on the executor's disk. Sent to another executor (a remote block read, a block dropped to disk) it is
 * written as its entries and read into a new store there.
 */
public final class RocksStateVersion<K, S> implements StateVersion<K, S>, KnownSizeEstimation {
    private static final long HANDLE_BYTES = 128;

    private final RocksBackend backend;
    final RocksStore store; // null: no key yet
    final Snapshot snapshot;
    final long sequence;
    private final long batchTime;
    private final int size;
    private final int changes;
    private final int timedOut;
    private final boolean timed;
    private final long removalsKnownSince;

    RocksStateVersion(RocksBackend backend, RocksStore store, RocksStore.Committed committed, long batchTime, int size,
            int changes, int timedOut, boolean timed) {
        this.backend = backend;
        this.store = store;
        this.snapshot = committed == null ? null : committed.snapshot();
        this.sequence = committed == null ? 0 : committed.sequence();
        this.batchTime = batchTime;
        this.size = size;
        this.changes = changes;
        this.timedOut = timedOut;
        this.timed = timed;
        this.removalsKnownSince = committed == null ? Long.MIN_VALUE : committed.removalsKnownSince();
        if (store != null) {
            store.releaseWhenUnreachable(this, snapshot);
        }
    }

    static <K, S> RocksStateVersion<K, S> empty(RocksBackend backend, long batchTime, boolean timed) {
        return new RocksStateVersion<>(backend, null, null, batchTime, 0, 0, 0, timed);
    }

    @Override
    public long batchTime() {
        return batchTime;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean timed() {
        return timed;
    }

    @Override
    public int changes() {
        return changes;
    }

    @Override
    public int timedOut() {
        return timedOut;
    }

    @Override
    public long estimatedBytes() {
        return HANDLE_BYTES;
    }

    @Override
    public long estimatedSize() {
        return HANDLE_BYTES;
    }

    @Override
    public long diskBytes() {
        return store == null ? 0 : store.diskBytes();
    }

    @Override
    public StateBackend backend() {
        return backend;
    }

    @Override
    public long removalsKnownSince() {
        return removalsKnownSince;
    }

    ReadOptions readOptions() {
        return new ReadOptions().setSnapshot(snapshot);
    }

    /** The stored value (time and state) of {@code key}'s bytes, or null. */
    byte[] read(byte[] key) {
        if (store == null) {
            return null;
        }
        try (ReadOptions read = readOptions()) {
            return store.db.get(store.entries, read, key);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read the RocksDB state store: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean contains(K key) {
        return read(new RocksCodec(backend.groups()).key(key)) != null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public S get(K key) {
        RocksCodec codec = new RocksCodec(backend.groups());
        byte[] value = read(codec.key(key));
        if (value == null) {
            throw new NoSuchElementException("no state for key " + key);
        }
        return (S) codec.decodeState(value);
    }

    @Override
    public long lastUpdate(K key) {
        byte[] value = read(new RocksCodec(backend.groups()).key(key));
        if (value == null) {
            throw new NoSuchElementException("no state for key " + key);
        }
        return RocksCodec.timeOfValue(value);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void forEach(EntryVisitor<K, S> visitor) throws Exception {
        if (store == null) {
            return;
        }
        RocksCodec codec = new RocksCodec(backend.groups());
        try (ReadOptions read = readOptions(); RocksIterator it = store.db.newIterator(store.entries, read)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] value = it.value();
                visitor.visit((K) codec.decodeKey(it.key()), (S) codec.decodeState(value), RocksCodec.timeOfValue(value));
            }
            it.status();
        }
    }

    @Override
    public <R> Iterator<R> iterator(BiFunction<K, S, R> f) {
        if (store == null) {
            return java.util.Collections.emptyIterator();
        }
        return new Entries<>(this, f);
    }

    /** The entries read lazily; the native iterator is closed at the end, or when the task ends. */
    private static final class Entries<K, S, R> implements Iterator<R> {
        private final RocksCodec codec;
        private final BiFunction<K, S, R> f;
        private ReadOptions read;
        private RocksIterator it;

        Entries(RocksStateVersion<K, S> version, BiFunction<K, S, R> f) {
            this.codec = new RocksCodec(version.backend.groups());
            this.f = f;
            this.read = version.readOptions();
            this.it = version.store.db.newIterator(version.store.entries, read);
            it.seekToFirst();
            TaskContext task = TaskContext.get();
            if (task != null) {
                task.addTaskCompletionListener((org.apache.spark.util.TaskCompletionListener) context -> close());
            }
            if (!it.isValid()) {
                close();
            }
        }

        @Override
        public synchronized boolean hasNext() {
            return it != null;
        }

        @Override
        @SuppressWarnings("unchecked")
        public synchronized R next() {
            if (it == null) {
                throw new NoSuchElementException();
            }
            byte[] value = it.value();
            R r = f.apply((K) codec.decodeKey(it.key()), (S) codec.decodeState(value));
            it.next();
            if (!it.isValid()) {
                close();
            }
            return r;
        }

        private synchronized void close() {
            if (it != null) {
                it.close();
                read.close();
                it = null;
                read = null;
            }
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void forEachChangeSince(long since, ChangeVisitor<K, S> visitor) throws Exception {
        if (!hasChangesSince(since)) {
            throw new IllegalStateException("the changes of " + this + " since batch " + since
                    + " are not known (removals are remembered since batch " + removalsKnownSince
                    + "): write a snapshot instead");
        }
        if (store == null) {
            return;
        }
        RocksCodec codec = new RocksCodec(backend.groups());
        byte[] from = RocksCodec.timePrefix(Math.max(0, since + 1));
        try (ReadOptions read = readOptions()) {
            try (RocksIterator it = store.db.newIterator(store.removals, read)) {
                for (it.seek(from); it.isValid(); it.next()) {
                    byte[] key = RocksCodec.keyOfTimeKey(it.key());
                    if (store.db.get(store.entries, read, key) == null) {
                        visitor.removed((K) codec.decodeKey(key), RocksCodec.timeOfTimeKey(it.key()));
                    }
                }
                it.status();
            }
            // the time index (one per live key), or without a timeout the change log: a key changed in several
            // batches is logged at each, and is visited at the one that is its entry's update time
            try (RocksIterator it = store.db.newIterator(store.times, read)) {
                for (it.seek(from); it.isValid(); it.next()) {
                    byte[] key = RocksCodec.keyOfTimeKey(it.key());
                    byte[] value = store.db.get(store.entries, read, key);
                    if (value == null && timed) {
                        throw new IllegalStateException("the time index of " + this + " names a key with no entry");
                    }
                    if (value != null && RocksCodec.timeOfValue(value) == RocksCodec.timeOfTimeKey(it.key())) {
                        visitor.updated((K) codec.decodeKey(key), (S) codec.decodeState(value),
                                RocksCodec.timeOfValue(value));
                    }
                }
                it.status();
            }
        }
    }

    /**
     * Forgets the changes of batches up to {@code through} in the store while this version is its head (a later
     * batch's writer may hold it: the next checkpoint forgets them then), so that without a timeout the change log
     * holds only what the next delta may read: the changes since the checkpoint before this one. This version, a
     * snapshot, still reads them.
     */
    public void forgetChangesThrough(long through) {
        if (store != null && store.claim(sequence)) {
            try {
                store.forgetChangesThrough(through, timed, 0);
            } finally {
                store.release(sequence);
            }
        }
    }

    @Override
    public StateWriter<K, S> writer(long time) {
        return new RocksStateWriter<>(this, time);
    }

    RocksBackend rocksBackend() {
        return backend;
    }

    @Override
    public String toString() {
        return "RocksStateVersion(batch " + batchTime + ", " + size + " keys" + (store == null ? ""
                : ", " + store.directory()) + ")";
    }
}
