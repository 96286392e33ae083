package io.sluice.state.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Builds a version from whole entries: an initial state RDD's pairs, or a snapshot being decoded. A later
 * entry for the same key replaces an earlier one.
 */
public final class HeapStateLoader<K, S> implements StateLoader<K, S> {
    private final StateTable table;
    private final boolean timed;

    public HeapStateLoader(int expectedSize, boolean timed) {
        this.table = new StateTable(expectedSize);
        this.timed = timed;
    }

    private HeapStateLoader(StateTable table, boolean timed) {
        this.table = table;
        this.timed = timed;
    }

    /** A loader holding every live entry of {@code version}, to apply changes to. */
    public static <K, S> HeapStateLoader<K, S> copyOf(HeapStateVersion<K, S> version) {
        if (version.delta == null) { // a compacted version: clone its arrays
            return new HeapStateLoader<>(version.base.copy(), version.timed());
        }
        HeapStateLoader<K, S> loader = new HeapStateLoader<>(version.size(), version.timed());
        try {
            version.forEach(loader::put);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return loader;
    }

    /**
     * Adds the live entries of {@code version} whose key's {@code hashCode()} passes {@code keep}, walking its
     * tables on slots (an arena key is copied as bytes, never made into a String).
     */
    @Override
    public void putEntriesOf(StateVersion<K, S> from, java.util.function.IntPredicate keep) {
        if (!(from instanceof HeapStateVersion<K, S> version)) {
            StateLoader.super.putEntriesOf(from, keep);
            return;
        }
        StateTable delta = version.delta;
        if (delta != null) {
            for (int i = delta.nextSlot(0); i >= 0; i = delta.nextSlot(i + 1)) {
                long t = delta.timeAt(i);
                int hashCode = delta.keyHashCodeAt(i);
                if (!StateTable.isTombstoneTime(t) && keep.test(hashCode)) {
                    table.putFrom(delta, i, KeyArena.mix(hashCode), delta.valueAt(i), t);
                }
            }
        }
        StateTable base = version.base;
        for (int i = base.nextSlot(0); i >= 0; i = base.nextSlot(i + 1)) {
            int hashCode = base.keyHashCodeAt(i);
            if (keep.test(hashCode)) {
                int hash = KeyArena.mix(hashCode);
                if (delta == null || delta.findFrom(base, i, hash) < 0) {
                    table.putFrom(base, i, hash, base.valueAt(i), base.timeAt(i));
                }
            }
        }
    }

    @Override
    public void put(K key, S state, long lastUpdate) {
        table.put(key, state, lastUpdate);
    }

    @Override
    public void remove(K key) {
        int s = table.find(key);
        if (s >= 0) {
            table.removeAt(s);
        }
    }

    /**
     * The version after batch {@code batchTime}; deltas can be taken from it for batches at or after
     * {@code removalsKnownSince}.
     */
    @Override
    public HeapStateVersion<K, S> build(long batchTime, long removalsKnownSince) {
        return build(batchTime, removalsKnownSince, table.size());
    }

    /**
     * The state after batch {@code batchTime} as it was, gathered from elsewhere (moved between partitions): no
     * key changed, so the next batch writes a small delta over this table instead of copying it.
     */
    @Override
    public HeapStateVersion<K, S> buildMoved(long batchTime) {
        return build(batchTime, batchTime, 0);
    }

    private HeapStateVersion<K, S> build(long batchTime, long removalsKnownSince, int changes) {
        TimeoutIndex index = TimeoutIndex.EMPTY;
        if (timed) {
            SortedMap<Long, List<Object>> byTime = new TreeMap<>();
            for (int i = table.nextSlot(0); i >= 0; i = table.nextSlot(i + 1)) {
                byTime.computeIfAbsent(table.timeAt(i), t -> new ArrayList<>()).add(table.keyAt(i));
            }
            index = TimeoutIndex.fromTimes(byTime);
        }
        return new HeapStateVersion<>(batchTime, table, null, table.size(), changes, 0, timed, index, null,
                removalsKnownSince);
    }
}
