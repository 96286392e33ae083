package io.sluice.state.internal.rocksdb;

import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.StateWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import scala.Tuple2;

/**
 * Writes the version after one batch into a {@link RocksStore}: the batch's keys are read ahead with one
 * multi-get at the previous version's snapshot, the changes are kept on the heap while the batch runs, and
 * written at the end as one write batch (entries, removals, and the times: with a timeout the time index, without
 * one the log of changed keys that deltas are read from), after which a snapshot is the new version. A batch that
 * changes more keys than {@link #FLUSH_AT} writes them in several batches, so the heap holds a bounded number of
 * changes whatever the state's size (updateStateByKey changes every key).
 *
 * <p>The previous version is never changed: the writer claims the store's head from it, and when another version
 * was written since (the batch is retried or recomputed), it writes into a copy of the previous version instead.
 */
final class RocksStateWriter<K, S> implements StateWriter<K, S> {
    static final int FLUSH_AT = 100_000;
    private static final int MULTI_GET_CHUNK = 4096;
    /** The order of keys in the store (their bytes, unsigned), in which a memtable takes them fastest. */
    private static final Comparator<Entry> STORE_ORDER = (a, b) -> {
        int c = Long.compareUnsigned(a.prefix, b.prefix);
        return c != 0 ? c : Arrays.compareUnsigned(a.key, b.key);
    };

    /** A key's state as read, or as this batch left it. */
    private static final class Entry {
        Object value;
        long time;
        boolean live;
        /** The key's update time in the store's time index (Long.MIN_VALUE: none). */
        long indexedTime;
        boolean changed;
        /** Read ahead for the batch's records: kept for the whole batch (they are what the batch looks up). */
        boolean readAhead;
        /** The key as stored (encoded once per batch). */
        final byte[] key;
        /** The key's first 8 bytes as an unsigned number: most comparisons in store order end there. */
        final long prefix;

        /** A key the store does not hold (until {@link #load}). */
        Entry(byte[] key) {
            this.key = key;
            this.time = Long.MIN_VALUE;
            this.indexedTime = Long.MIN_VALUE;
            long p = 0;
            for (int i = 0; i < 8; i++) {
                p = (p << 8) | (i < key.length ? key[i] & 0xFF : 0);
            }
            this.prefix = p;
        }

        /** Takes what the store holds for the key (its value bytes, or null). */
        void load(byte[] stored, RocksCodec codec) {
            if (stored != null) {
                value = codec.decodeState(stored);
                time = RocksCodec.timeOfValue(stored);
                live = true;
                indexedTime = time;
            }
        }
    }

    private final RocksStateVersion<K, S> previous;
    private final long time;
    private final RocksCodec codec;
    /** Keys read or changed in this batch; the changed ones are written at the next flush. */
    private Map<Object, Entry> known = new HashMap<>();
    private int pending;
    private RocksStore target; // claimed at the first flush
    private boolean flushed;
    private int size;
    private int changes;
    private int timedOut;
    private int removedSinceCommit;
    private int loggedSinceCommit;
    private boolean overflowed;
    private Entry current;
    /** The keys of the records read ahead, in their order, and their entries: what lookup expects next. */
    private Object[] recordKeys = new Object[0];
    private Entry[] recordEntries;
    private int nextRecord;
    /** The read-ahead entries, in store order unless read ahead more than once. */
    private final List<Entry> readOrder = new ArrayList<>();
    private boolean readOrderSorted = true;

    RocksStateWriter(RocksStateVersion<K, S> previous, long time) {
        if (time < previous.batchTime()) {
            throw new IllegalArgumentException("batch " + time + " does not follow the state of batch "
                    + previous.batchTime());
        }
        if (time < 0) {
            throw new IllegalArgumentException("batch times must not be negative in a RocksDB state store: " + time);
        }
        this.previous = previous;
        this.time = time;
        this.codec = new RocksCodec(previous.rocksBackend().groups());
        this.size = previous.size();
    }

    @Override
    public <V> Iterator<Tuple2<K, V>> readAhead(Iterator<Tuple2<K, V>> records) {
        List<Tuple2<K, V>> all = new ArrayList<>();
        records.forEachRemaining(all::add);
        if (known.isEmpty()) { // sized for the batch's records at once, not grown key by key
            known = new HashMap<>(Math.max(16, all.size() * 2));
        }
        List<Entry> fetching = new ArrayList<>();
        Entry[] entries = new Entry[all.size()];
        for (int i = 0; i < entries.length; i++) {
            K key = all.get(i)._1();
            Entry e = known.get(key);
            if (e == null) {
                e = new Entry(codec.key(key));
                e.readAhead = true;
                fetching.add(e);
                known.put(key, e);
            }
            entries[i] = e;
        }
        recordKeys = new Object[entries.length];
        for (int i = 0; i < entries.length; i++) {
            recordKeys[i] = all.get(i)._1();
        }
        recordEntries = entries;
        nextRecord = 0;
        fetching.sort(STORE_ORDER);
        readOrderSorted = readOrder.isEmpty();
        readOrder.addAll(fetching);
        if (previous.store == null) {
            return all.iterator();
        }
        List<byte[]> keys = new ArrayList<>(fetching.size());
        for (Entry e : fetching) {
            keys.add(e.key);
        }
        try (ReadOptions read = previous.readOptions()) {
            for (int from = 0; from < keys.size(); from += MULTI_GET_CHUNK) {
                int to = Math.min(keys.size(), from + MULTI_GET_CHUNK);
                List<byte[]> values = previous.store.multiGet(read, keys.subList(from, to));
                for (int i = from; i < to; i++) {
                    fetching.get(i).load(values.get(i - from), codec);
                }
            }
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read the RocksDB state store: " + e.getMessage(), e);
        }
        return all.iterator();
    }

    @Override
    public void lookup(Object key) {
        if (nextRecord < recordKeys.length && recordKeys[nextRecord] == key) { // the next record's: no hashing
            current = recordEntries[nextRecord++];
            return;
        }
        Entry e = known.get(key);
        if (e == null) {
            byte[] stored = codec.key(key);
            e = new Entry(stored);
            e.load(readStored(stored), codec);
            known.put(key, e);
        }
        current = e;
    }

    /** A key's stored value: at the previous version, or, once this writer wrote to the head, at the head. */
    private byte[] readStored(byte[] key) {
        if (previous.store == null) {
            return null;
        }
        if (!flushed) {
            return previous.read(key);
        }
        try {
            return target.db.get(target.entries, key);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read the RocksDB state store: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean exists() {
        return current.live;
    }

    @Override
    @SuppressWarnings("unchecked")
    public S value() {
        return (S) current.value;
    }

    @Override
    public long lastUpdate() {
        return current.time;
    }

    @Override
    public void put(Object key, Object newValue) {
        if (!current.live) {
            size++;
        }
        current.value = newValue;
        current.time = time;
        current.live = true;
        changed(key);
    }

    @Override
    public void touch(Object key) {
        if (current.live && current.time != time) {
            put(key, current.value);
        }
    }

    @Override
    public void remove(Object key) {
        if (!current.live) {
            return;
        }
        current.live = false;
        current.value = null;
        size--;
        changed(key);
    }

    private void changed(Object key) {
        changes++;
        if (!current.changed) {
            current.changed = true;
            if (++pending >= FLUSH_AT) {
                flush();
            }
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void expire(long threshold, TimeoutHandler<K, S> handler) throws Exception {
        if (previous.store == null || threshold <= 0) {
            return;
        }
        List<byte[]> expiring = new ArrayList<>();
        try (ReadOptions read = previous.readOptions();
                RocksIterator it = previous.store.db.newIterator(previous.store.times, read)) {
            byte[] end = RocksCodec.timePrefix(threshold);
            for (it.seekToFirst(); it.isValid() && Arrays.compareUnsigned(it.key(), end) < 0; it.next()) {
                expiring.add(it.key());
            }
            it.status();
        }
        for (byte[] timeKey : expiring) {
            long bucket = RocksCodec.timeOfTimeKey(timeKey);
            Object key = codec.decodeKey(RocksCodec.keyOfTimeKey(timeKey));
            lookup(key);
            if (current.live && current.time == bucket) {
                handler.timingOut((K) key, (S) current.value);
                remove(key);
                timedOut++;
            }
        }
    }

    /** Writes the changes so far at the store's head (claiming it, or a copy of the previous version, first). */
    private void flush() {
        if (target == null) {
            target = claimTarget();
        }
        // without a timeout, a batch changing more keys than the store keeps changes for (half its keys) is not
        // logged: a delta since before it could not be written, and commit forgets the changes through it
        overflowed |= !previous.timed() && loggedSinceCommit + pending > budget();
        boolean logging = !previous.timed() && !overflowed;
        SerializedWriteBatch batch = new SerializedWriteBatch(pending * 64);
        for (Entry entry : changedInStoreOrder()) {
            write(batch, entry, logging);
            entry.changed = false;
        }
        target.write(batch);
        flushed = true;
        pending = 0;
        if (known.size() > FLUSH_AT) { // keys looked up one by one (updateStateByKey's walk): read from the head
            known.values().removeIf(e -> !e.readAhead);
        }
    }

    /**
     * The changed entries in store order: a memtable inserts a key next to the one before it fastest (a skip list
     * reuses the path it found for the previous key), and the read-ahead keys are in that order already.
     */
    private List<Entry> changedInStoreOrder() {
        List<Entry> changed = new ArrayList<>(pending);
        for (Entry e : readOrder) {
            if (e.changed) {
                changed.add(e);
            }
        }
        if (changed.size() < pending) { // keys looked up one by one (timeouts, updateStateByKey's walk)
            for (Entry e : known.values()) {
                if (e.changed && !e.readAhead) {
                    changed.add(e);
                }
            }
            changed.sort(STORE_ORDER);
        } else if (!readOrderSorted) {
            changed.sort(STORE_ORDER);
        }
        return changed;
    }

    private void write(SerializedWriteBatch batch, Entry entry, boolean logging) {
        boolean indexed = previous.timed();
        if (indexed && entry.indexedTime != Long.MIN_VALUE) {
            batch.deleteTimeKey(target.times, entry.indexedTime, entry.key);
        }
        if (entry.live) {
            batch.put(target.entries, entry.key, codec.value(entry.value, entry.time));
            if (indexed || logging) { // the time index, or without a timeout the change log
                batch.putTimeKey(target.times, entry.time, entry.key);
                loggedSinceCommit += logging ? 1 : 0;
            }
            entry.indexedTime = entry.time;
        } else {
            batch.delete(target.entries, entry.key);
            if (entry.indexedTime != Long.MIN_VALUE) { // it had state before this batch's writes
                batch.putTimeKey(target.removals, time, entry.key);
                removedSinceCommit++;
            }
            entry.indexedTime = Long.MIN_VALUE;
        }
    }

    private RocksStore claimTarget() {
        RocksStore store = previous.store;
        if (store != null && store.claim(previous.sequence)) {
            return store;
        }
        RocksStore fresh = store == null ? RocksStore.open(previous.rocksBackend().groups())
                : RocksStore.copyOf(store, previous.snapshot, previous.removalsKnownSince(), previous.timed());
        if (!fresh.claim(fresh.head())) {
            throw new IllegalStateException("a new RocksDB state store was claimed twice");
        }
        return fresh;
    }

    /** How many removals, and without a timeout logged changes, the store keeps: half its keys (as the heap). */
    private long budget() {
        return Math.max(1024, size / 2);
    }

    @Override
    public StateVersion<K, S> finish() {
        if (previous.store == null && target == null && pending == 0) {
            return RocksStateVersion.empty(previous.rocksBackend(), time, previous.timed());
        }
        flush();
        if (overflowed) {
            target.forgetChangesThrough(time, false, removedSinceCommit + loggedSinceCommit);
        }
        RocksStore.Committed committed = target.commit(time, overflowed ? 0 : removedSinceCommit + loggedSinceCommit,
                budget(), previous.timed());
        return new RocksStateVersion<>(previous.rocksBackend(), target, committed, time, size, changes, timedOut,
                previous.timed());
    }
}
