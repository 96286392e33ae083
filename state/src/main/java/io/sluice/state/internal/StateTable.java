package io.sluice.state.internal;

import java.util.Arrays;

/**
 * An open-addressing hash table (linear probing, power-of-two capacity) from keys to state values and
 * last-update times, laid out as arrays so that an entry costs a key reference, a value and a time: no entry
 * objects. While every value is a {@link Long} the values live unboxed next to their times in one {@code
 * long[]} (value and time of a slot share a cache line); the first value of another type moves the values to
 * an {@code Object[]} once.
 *
 * <p>A table is mutated only by the one transition that owns it; once published in a {@link StateVersion} it
 * is never mutated again (the next version copies it). In a delta table a negative time marks a removal
 * ({@link #tombstone}), so that a delta can shadow a key of its base.
 */
public final class StateTable {
    static final int MIN_CAPACITY = 16;
    private static final float MAX_LOAD = 0.7f;

    private Object[] keys;
    /** Unboxed: value of slot i at 2i, time at 2i+1. Boxed: time of slot i at i (values in objects). */
    private long[] meta;
    private Object[] objects;
    private int size;
    private int mask;
    private int resizeAt;

    public StateTable(int expectedSize) {
        allocate(capacityFor(expectedSize), true);
    }

    private StateTable(StateTable other) {
        keys = other.keys.clone();
        meta = other.meta.clone();
        objects = other.objects == null ? null : other.objects.clone();
        size = other.size;
        mask = other.mask;
        resizeAt = other.resizeAt;
    }

    static int capacityFor(int expectedSize) {
        long needed = (long) Math.ceil(Math.max(expectedSize, 1) / (double) MAX_LOAD);
        long cap = Math.max(MIN_CAPACITY, Long.highestOneBit(Math.max(needed - 1, 1)) << 1);
        if (cap > (1 << 30)) {
            throw new IllegalStateException("a state partition cannot hold " + expectedSize + " keys");
        }
        return (int) cap;
    }

    private void allocate(int capacity, boolean unboxed) {
        keys = new Object[capacity];
        if (unboxed) {
            meta = new long[2 * capacity];
            objects = null;
        } else {
            meta = new long[capacity];
            objects = new Object[capacity];
        }
        mask = capacity - 1;
        resizeAt = (int) (capacity * MAX_LOAD);
    }

    /** A private, mutable copy (array clones: no per-entry work). */
    public StateTable copy() {
        return new StateTable(this);
    }

    public static int hash(Object key) {
        int h = key == null ? 0 : key.hashCode();
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        return h ^ (h >>> 16);
    }

    /**
     * The slot holding {@code key}, or {@code -(insertion point) - 1} when it is absent. The insertion point
     * stays valid until the table is next modified.
     */
    public int find(Object key, int hash) {
        Object[] ks = keys;
        int i = hash & mask;
        while (true) {
            Object k = ks[i];
            if (k == null) {
                return -i - 1;
            }
            if (k == key || k.equals(key)) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    public int find(Object key) {
        return find(key, hash(key));
    }

    private int timeIndex(int slot) {
        return objects == null ? 2 * slot + 1 : slot;
    }

    /** Inserts a new key at an insertion point {@link #find} returned (encoded as it returned it). */
    public void insertAt(int encodedInsertionPoint, Object key, Object value, long time) {
        int slot = -encodedInsertionPoint - 1;
        keys[slot] = key;
        setValue(slot, value);
        meta[timeIndex(slot)] = time;
        if (++size > resizeAt) {
            rehash(keys.length << 1);
        }
    }

    /** Inserts a removal marker for a key only the base holds (delta tables only). */
    public void insertTombstoneAt(int encodedInsertionPoint, Object key, long time) {
        int slot = -encodedInsertionPoint - 1;
        keys[slot] = key;
        tombstone(slot, time);
        if (++size > resizeAt) {
            rehash(keys.length << 1);
        }
    }

    /** Inserts or overwrites. */
    public void put(Object key, int hash, Object value, long time) {
        int slot = find(key, hash);
        if (slot >= 0) {
            setValue(slot, value);
            meta[timeIndex(slot)] = time;
        } else {
            insertAt(slot, key, value, time);
        }
    }

    public void put(Object key, Object value, long time) {
        put(key, hash(key), value, time);
    }

    public void setValue(int slot, Object value) {
        if (objects == null) {
            if (value instanceof Long l) {
                meta[2 * slot] = l;
                return;
            }
            box();
        }
        objects[slot] = value;
    }

    public void setTime(int slot, long time) {
        meta[timeIndex(slot)] = time;
    }

    /** Marks the key at {@code slot} removed as of {@code time} (delta tables only). */
    public void tombstone(int slot, long time) {
        if (objects != null) {
            objects[slot] = null;
        }
        meta[timeIndex(slot)] = -time - 1;
    }

    public static boolean isTombstoneTime(long time) {
        return time < 0;
    }

    /** The batch time of a tombstone's removal. */
    public static long removalTime(long tombstoneTime) {
        return -tombstoneTime - 1;
    }

    private void box() {
        int capacity = keys.length;
        Object[] boxed = new Object[capacity];
        long[] times = new long[capacity];
        for (int i = 0; i < capacity; i++) {
            times[i] = meta[2 * i + 1];
            if (keys[i] != null && !isTombstoneTime(times[i])) {
                boxed[i] = meta[2 * i];
            }
        }
        objects = boxed;
        meta = times;
    }

    /** Removes the key at {@code slot}, shifting later entries of its probe run back (no tombstones). */
    public void removeAt(int slot) {
        Object[] ks = keys;
        int hole = slot;
        int i = slot;
        while (true) {
            i = (i + 1) & mask;
            Object k = ks[i];
            if (k == null) {
                break;
            }
            int home = hash(k) & mask;
            // move k into the hole unless its home lies cyclically in (hole, i]
            boolean stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!stays) {
                ks[hole] = k;
                if (objects == null) {
                    meta[2 * hole] = meta[2 * i];
                    meta[2 * hole + 1] = meta[2 * i + 1];
                } else {
                    objects[hole] = objects[i];
                    meta[hole] = meta[i];
                }
                hole = i;
            }
        }
        ks[hole] = null;
        if (objects != null) {
            objects[hole] = null;
        }
        size--;
    }

    private void rehash(int capacity) {
        Object[] oldKeys = keys;
        long[] oldMeta = meta;
        Object[] oldObjects = objects;
        boolean unboxed = oldObjects == null;
        allocate(capacity, unboxed);
        for (int i = 0; i < oldKeys.length; i++) {
            Object k = oldKeys[i];
            if (k != null) {
                int slot = -find(k, hash(k)) - 1;
                keys[slot] = k;
                if (unboxed) {
                    meta[2 * slot] = oldMeta[2 * i];
                    meta[2 * slot + 1] = oldMeta[2 * i + 1];
                } else {
                    objects[slot] = oldObjects[i];
                    meta[slot] = oldMeta[i];
                }
            }
        }
    }

    /** Grows the table ahead of {@code expectedSize} entries (avoids rehashing during a bulk load). */
    public void ensureCapacity(int expectedSize) {
        int cap = capacityFor(expectedSize);
        if (cap > keys.length) {
            rehash(cap);
        }
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return keys.length;
    }

    public Object keyAt(int slot) {
        return keys[slot];
    }

    public Object valueAt(int slot) {
        return objects == null ? Long.valueOf(meta[2 * slot]) : objects[slot];
    }

    public long timeAt(int slot) {
        return meta[timeIndex(slot)];
    }

    /** Whether values are stored unboxed (every value so far was a Long). */
    public boolean isUnboxed() {
        return objects == null;
    }

    /** The next occupied slot at or after {@code from}, or -1. */
    public int nextSlot(int from) {
        Object[] ks = keys;
        for (int i = from; i < ks.length; i++) {
            if (ks[i] != null) {
                return i;
            }
        }
        return -1;
    }

    /** Drops all entries, keeping the capacity. */
    public void clear() {
        Arrays.fill(keys, null);
        if (objects != null) {
            Arrays.fill(objects, null);
        }
        size = 0;
    }
}
