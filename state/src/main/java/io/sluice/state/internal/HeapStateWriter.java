package io.sluice.state.internal;

import java.util.Arrays;

/**
 * Builds the next {@link HeapStateVersion} of a partition from the previous one, one key at a time, without
 * touching the previous version: it writes into a private copy of the delta (or, when the batch changes many
 * keys or the state is small, into a private copy of the whole table). Single-threaded, used by one task.
 *
 * <p>Callers {@link #lookup} a key first; {@link #exists}, {@link #value} and {@link #lastUpdate} then
 * describe it, and {@link #put}/{@link #remove}/{@link #touch} act on it reusing the lookup's probe.
 */
public final class HeapStateWriter<K, S> implements StateWriter<K, S> {
    /** Below this many keys a version is always one table: copying it is cheaper than layering. */
    static final int SMALL_STATE = 8192;

    private final HeapStateVersion<K, S> previous;
    private final long time;
    private final boolean timed;
    private StateTable table;
    private StateTable base;
    private int deltaLimit;
    private int size;
    private int changes;

    private Object[] touched = new Object[16];
    private int touchedCount;
    private Object[] removed = new Object[16];
    private int removedCount;
    private int firedBuckets;
    private int timedOut;

    private int slot;
    private int baseSlot;
    private boolean exists;
    private Object value;
    private long lastUpdate;

    public HeapStateWriter(HeapStateVersion<K, S> previous, long time) {
        if (time < previous.batchTime) {
            throw new IllegalArgumentException("batch " + time + " does not follow the state of batch "
                    + previous.batchTime);
        }
        this.previous = previous;
        this.time = time;
        this.timed = previous.timed;
        this.size = previous.size;
        int baseSize = previous.base.size();
        this.deltaLimit = Math.max(SMALL_STATE / 2, baseSize / 4);
        if (baseSize < SMALL_STATE || previous.changes > deltaLimit) {
            table = merged(previous.base, previous.delta);
            base = null;
        } else {
            base = previous.base;
            table = previous.delta == null ? new StateTable(Math.min(deltaLimit, 1024)) : previous.delta.copy();
        }
    }

    private static StateTable merged(StateTable base, StateTable delta) {
        StateTable t = base.copy();
        if (delta != null) {
            t.ensureCapacity(base.size() + delta.size());
            for (int i = delta.nextSlot(0); i >= 0; i = delta.nextSlot(i + 1)) {
                Object k = delta.keyAt(i);
                long when = delta.timeAt(i);
                int s = t.find(k);
                if (StateTable.isTombstoneTime(when)) {
                    if (s >= 0) {
                        t.removeAt(s);
                    }
                } else if (s >= 0) {
                    t.setValue(s, delta.valueAt(i));
                    t.setTime(s, when);
                } else {
                    t.insertAt(s, k, delta.valueAt(i), when);
                }
            }
        }
        return t;
    }

    public long time() {
        return time;
    }

    /** Finds {@code key}; afterwards {@link #exists()}, {@link #value()} and {@link #lastUpdate()} describe it. */
    public void lookup(Object key) {
        int h = StateTable.hash(key);
        slot = table.find(key, h);
        baseSlot = -1;
        if (slot >= 0) {
            long t = table.timeAt(slot);
            if (base != null && StateTable.isTombstoneTime(t)) {
                exists = false;
                value = null;
            } else {
                exists = true;
                value = table.valueAt(slot);
                lastUpdate = t;
            }
        } else if (base != null && (baseSlot = base.find(key, h)) >= 0) {
            exists = true;
            value = base.valueAt(baseSlot);
            lastUpdate = base.timeAt(baseSlot);
        } else {
            exists = false;
            value = null;
        }
    }

    public boolean exists() {
        return exists;
    }

    @SuppressWarnings("unchecked")
    public S value() {
        return (S) value;
    }

    public long lastUpdate() {
        return lastUpdate;
    }

    /** Sets the looked-up key's state, updated at this batch. */
    public void put(Object key, Object newValue) {
        if (timed && (!exists || lastUpdate != time)) {
            touched = append(touched, touchedCount++, key);
        }
        if (slot >= 0) {
            table.setValue(slot, newValue);
            table.setTime(slot, time);
        } else {
            table.insertAt(slot, key, newValue, time);
        }
        if (!exists) {
            size++;
        }
        exists = true;
        value = newValue;
        lastUpdate = time;
        changes++;
        compactIfLarge();
    }

    /** Marks the looked-up key as updated at this batch without changing its state (it received data). */
    public void touch(Object key) {
        if (exists && lastUpdate != time) {
            put(key, value);
        }
    }

    /** Removes the looked-up key's state (a no-op when it has none). */
    public void remove(Object key) {
        if (!exists) {
            return;
        }
        if (base == null) {
            table.removeAt(slot);
        } else if (slot >= 0) {
            table.tombstone(slot, time);
        } else {
            table.insertTombstoneAt(slot, key, time);
        }
        removed = append(removed, removedCount++, key);
        size--;
        exists = false;
        value = null;
        changes++;
        compactIfLarge();
    }

    private void compactIfLarge() {
        if (base != null && table.size() > deltaLimit) {
            table = merged(base, table);
            base = null;
        }
        slot = Integer.MIN_VALUE; // a lookup must precede the next write
    }

    private static Object[] append(Object[] array, int index, Object key) {
        Object[] a = index < array.length ? array : Arrays.copyOf(array, array.length * 2);
        a[index] = key;
        return a;
    }

    /**
     * Removes every key last updated before {@code threshold} (batch time minus the timeout), first handing it
     * to {@code handler}. Visits only the timeout buckets that expire, not the state.
     */
    @SuppressWarnings("unchecked")
    public void expire(long threshold, TimeoutHandler<K, S> handler) throws Exception {
        TimeoutIndex index = previous.timeouts;
        int expiring = index.bucketsBefore(threshold);
        for (int b = 0; b < expiring; b++) {
            long bucketTime = index.bucketTime(b);
            for (Object key : index.bucketKeys(b)) {
                lookup(key);
                if (exists && lastUpdate == bucketTime) {
                    handler.timingOut((K) key, (S) value);
                    remove(key);
                    timedOut++;
                }
            }
        }
        firedBuckets = expiring;
    }

    /** The new version; the writer must not be used afterwards. */
    public HeapStateVersion<K, S> finish() {
        boolean compacted = base == null;
        StateTable newBase = compacted ? table : base;
        StateTable newDelta = compacted ? null : table;
        TimeoutIndex index = TimeoutIndex.EMPTY;
        if (timed) {
            index = previous.timeouts.next(firedBuckets, time, touched, touchedCount);
            if (index.references() > 2L * size + 1024) {
                index = index.withoutStale((key, t) -> {
                    lookup(key);
                    return exists && lastUpdate == t;
                });
            }
        }
        RemovalLog log = previous.removals;
        long knownSince = previous.removalsKnownSince;
        if (removedCount > 0) {
            log = RemovalLog.prepend(log, time, Arrays.copyOf(removed, removedCount));
        }
        long budget = Math.max(1024, size / 2);
        if (log != null && log.total > budget) {
            // keep the newest chunks that fit; removals at or before the newest dropped chunk are forgotten
            java.util.ArrayList<RemovalLog> kept = new java.util.ArrayList<>();
            long total = 0;
            RemovalLog r = log;
            while (r != null && total + r.keys.length <= budget) {
                kept.add(r);
                total += r.keys.length;
                r = r.older;
            }
            knownSince = r == null ? knownSince : r.time;
            RemovalLog rebuilt = null;
            for (int i = kept.size() - 1; i >= 0; i--) {
                rebuilt = RemovalLog.prepend(rebuilt, kept.get(i).time, kept.get(i).keys);
            }
            log = rebuilt;
        }
        return new HeapStateVersion<>(time, newBase, newDelta, size, changes, timedOut, timed, index, log,
                knownSince);
    }
}
