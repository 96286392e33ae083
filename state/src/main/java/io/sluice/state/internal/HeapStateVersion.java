package io.sluice.state.internal;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;

/**
 * The state of one partition after one batch on the heap ({@link HeapBackend}). It is a base table plus, optionally, a
 * small delta table of the keys changed since the base was made (a removal in the delta hides the base's
 * entry). Reading a key costs at most two probes.
 *
 * <p>The next version never mutates this one: it either copies this delta and adds to the copy (while the
 * delta is small), or copies base and delta into a fresh base (compaction). So recomputing or retrying the
 * next batch always starts from exactly this state. Both copies are array clones, and a delta is compacted
 * once it holds a quarter of the base, so a batch costs time proportional to its records plus, amortized, a
 * constant fraction of its changes; a version's own memory is its delta (the base is shared).
 *
 * @param <K> key type
 * @param <S> state type
 */
public final class HeapStateVersion<K, S> implements StateVersion<K, S> {
    final long batchTime;
    final StateTable base;
    final StateTable delta;
    final int size;
    final int changes;
    final int timedOut;
    final boolean timed;
    final TimeoutIndex timeouts;
    final RemovalLog removals;
    final long removalsKnownSince;

    HeapStateVersion(long batchTime, StateTable base, StateTable delta, int size, int changes, int timedOut,
            boolean timed, TimeoutIndex timeouts, RemovalLog removals, long removalsKnownSince) {
        this.batchTime = batchTime;
        this.base = base;
        this.delta = delta;
        this.size = size;
        this.changes = changes;
        this.timedOut = timedOut;
        this.timed = timed;
        this.timeouts = timeouts;
        this.removals = removals;
        this.removalsKnownSince = removalsKnownSince;
    }

    /** No keys, before the first batch at {@code batchTime}; {@code timed} when the operator has a timeout. */
    public static <K, S> HeapStateVersion<K, S> empty(long batchTime, boolean timed) {
        return new HeapStateVersion<>(batchTime, new StateTable(0), null, 0, 0, 0, timed, TimeoutIndex.EMPTY, null,
                Long.MIN_VALUE);
    }

    /** The batch this is the state after. */
    public long batchTime() {
        return batchTime;
    }

    /** Live keys. */
    public int size() {
        return size;
    }

    /** Whether keys carry timeout buckets (the operator has a timeout). */
    public boolean timed() {
        return timed;
    }

    /** Keys the batch that made this version changed (a write counts once per record). */
    public int changes() {
        return changes;
    }

    /** Keys the batch that made this version timed out (0 without a timeout, and for a loaded state). */
    public int timedOut() {
        return timedOut;
    }

    /**
     * The memory of the whole state as of this version, estimated cheaply (see {@link
     * StateTable#estimatedBytes}): base and delta tables, and the timeout index (a reference per entry, and in
     * the arena layout the key object it holds). The base is counted although earlier versions share it.
     */
    public long estimatedBytes() {
        long bytes = base.estimatedBytes() + (delta == null ? 0 : delta.estimatedBytes());
        long references = timeouts.references();
        if (references > 0) {
            StateTable sample = base.size() > 0 || delta == null ? base : delta;
            bytes += references * (4 + (sample.keysInArena() ? sample.meanKeyObjectBytes() : 0));
        }
        return bytes;
    }

    /**
     * The next growth of the base table: the batch after this one either copies the base (with the delta's keys)
     * into its own table, which grows from the base's capacity, or adds to a copy of the delta, which compacts
     * into such a table once it holds a quarter of the base.
     */
    @Override
    public long growthBytes() {
        return base.growthBytes();
    }

    /** Entries held by the delta table (0 when this version is fully compacted); for tests and metrics. */
    public int deltaEntries() {
        return delta == null ? 0 : delta.size();
    }

    /** The earliest batch b for which the removals after b are known, so {@code deltaSince(b)} is possible. */
    public long removalsKnownSince() {
        return removalsKnownSince;
    }

    public boolean contains(K key) {
        return locate(key) != null;
    }

    /** The key's state; NoSuchElementException when it has none. */
    @SuppressWarnings("unchecked")
    public S get(K key) {
        Object[] at = locate(key);
        if (at == null) {
            throw new NoSuchElementException("no state for key " + key);
        }
        StateTable t = (StateTable) at[0];
        return (S) t.valueAt((Integer) at[1]);
    }

    /** The key's last update time; NoSuchElementException when it has no state. */
    public long lastUpdate(K key) {
        Object[] at = locate(key);
        if (at == null) {
            throw new NoSuchElementException("no state for key " + key);
        }
        return ((StateTable) at[0]).timeAt((Integer) at[1]);
    }

    private Object[] locate(Object key) {
        int h = StateTable.hash(key);
        if (delta != null) {
            int s = delta.find(key, h);
            if (s >= 0) {
                return StateTable.isTombstoneTime(delta.timeAt(s)) ? null : new Object[] {delta, s};
            }
        }
        int s = base.find(key, h);
        return s >= 0 ? new Object[] {base, s} : null;
    }

    /** Visits every live entry once (in no particular order). */
    @SuppressWarnings("unchecked")
    public void forEach(EntryVisitor<K, S> visitor) throws Exception {
        if (delta != null) {
            for (int i = delta.nextSlot(0); i >= 0; i = delta.nextSlot(i + 1)) {
                long t = delta.timeAt(i);
                if (!StateTable.isTombstoneTime(t)) {
                    visitor.visit((K) delta.keyAt(i), (S) delta.valueAt(i), t);
                }
            }
        }
        for (int i = base.nextSlot(0); i >= 0; i = base.nextSlot(i + 1)) {
            Object k = base.keyAt(i);
            if (delta == null || delta.find(k) < 0) {
                visitor.visit((K) k, (S) base.valueAt(i), base.timeAt(i));
            }
        }
    }

    /** Every live entry as {@code f(key, state)}, lazily (for snapshots and updateStateByKey's output). */
    public <R> Iterator<R> iterator(BiFunction<K, S, R> f) {
        return new Iterator<>() {
            private StateTable table = delta != null ? delta : base;
            private int slot = advance(-1);

            private int advance(int from) {
                while (true) {
                    int next = table.nextSlot(from + 1);
                    while (next >= 0 && !live(next)) {
                        next = table.nextSlot(next + 1);
                    }
                    if (next >= 0 || table == base) {
                        return next;
                    }
                    table = base;
                    from = -1;
                }
            }

            private boolean live(int s) {
                if (table == delta) {
                    return !StateTable.isTombstoneTime(delta.timeAt(s));
                }
                return delta == null || delta.find(base.keyAt(s)) < 0;
            }

            @Override
            public boolean hasNext() {
                return slot >= 0;
            }

            @Override
            @SuppressWarnings("unchecked")
            public R next() {
                if (slot < 0) {
                    throw new NoSuchElementException();
                }
                R r = f.apply((K) table.keyAt(slot), (S) table.valueAt(slot));
                slot = advance(slot);
                return r;
            }
        };
    }

    /**
     * Visits what changed after batch {@code since}: keys removed since then that have no state now, then
     * every live entry last updated after it. Applying them, in that order, to the state of {@code since}
     * gives this version. Costs a pass over the live entries, but writes only the changes.
     */
    @SuppressWarnings("unchecked")
    public void forEachChangeSince(long since, ChangeVisitor<K, S> visitor) throws Exception {
        if (!hasChangesSince(since)) {
            throw new IllegalStateException("the changes of " + this + " since batch " + since
                    + " are not known (removals are remembered since batch " + removalsKnownSince
                    + "): write a snapshot instead");
        }
        for (RemovalLog r = removals; r != null && r.time > since; r = r.older) {
            for (Object key : r.keys) {
                if (locate(key) == null) {
                    visitor.removed((K) key, r.time);
                }
            }
        }
        if (delta != null) {
            for (int i = delta.nextSlot(0); i >= 0; i = delta.nextSlot(i + 1)) {
                long t = delta.timeAt(i);
                if (t > since && !StateTable.isTombstoneTime(t)) {
                    visitor.updated((K) delta.keyAt(i), (S) delta.valueAt(i), t);
                }
            }
        }
        for (int i = base.nextSlot(0); i >= 0; i = base.nextSlot(i + 1)) {
            long t = base.timeAt(i); // the time first: most entries are older, and a key costs a String to make
            if (t > since) {
                Object k = base.keyAt(i);
                if (delta == null || delta.find(k) < 0) {
                    visitor.updated((K) k, (S) base.valueAt(i), t);
                }
            }
        }
    }

    @Override
    public StateWriter<K, S> writer(long time) {
        return new HeapStateWriter<>(this, time);
    }

    @Override
    public StateBackend backend() {
        return HeapBackend.INSTANCE;
    }

    @Override
    public String toString() {
        return "HeapStateVersion(batch " + batchTime + ", " + size + " keys, delta " + deltaEntries() + ")";
    }
}
