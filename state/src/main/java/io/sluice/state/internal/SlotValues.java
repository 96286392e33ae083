package io.sluice.state.internal;

import java.util.Arrays;

/**
 * The value and time columns of a {@link StateTable}, slot for slot with its {@link KeyArena}. While every value
 * is a {@link Long} the values live unboxed next to their times in one {@code long[]} (value and time of a slot
 * share a cache line); the first value of another type moves the values to an {@code Object[]} once. A negative
 * time marks a removal in a delta table (see {@link StateTable#tombstone}).
 */
final class SlotValues {
    /** Unboxed: value of slot i at 2i, time at 2i+1. Boxed: time of slot i at i (values in objects). */
    private long[] meta;
    private Object[] objects;

    /** Unboxed columns of {@code capacity} slots. */
    SlotValues(int capacity) {
        allocate(capacity, true);
    }

    private SlotValues(SlotValues other) {
        meta = other.meta.clone();
        objects = other.objects == null ? null : other.objects.clone();
    }

    SlotValues copy() {
        return new SlotValues(this);
    }

    private void allocate(int capacity, boolean unboxed) {
        if (unboxed) {
            meta = new long[2 * capacity];
            objects = null;
        } else {
            meta = new long[capacity];
            objects = new Object[capacity];
        }
    }

    boolean isUnboxed() {
        return objects == null;
    }

    private int timeIndex(int slot) {
        return objects == null ? 2 * slot + 1 : slot;
    }

    Object valueAt(int slot) {
        return objects == null ? Long.valueOf(meta[2 * slot]) : objects[slot];
    }

    long timeAt(int slot) {
        return meta[timeIndex(slot)];
    }

    /** Sets the value of {@code slot}; first boxes the column if it is not a Long ({@code keys}: occupied slots). */
    void setValue(int slot, Object value, KeyArena keys) {
        if (objects == null) {
            if (value instanceof Long l) {
                meta[2 * slot] = l;
                return;
            }
            box(keys);
        }
        objects[slot] = value;
    }

    void setTime(int slot, long time) {
        meta[timeIndex(slot)] = time;
    }

    /** Marks the value of {@code slot} removed as of {@code time}. */
    void tombstone(int slot, long time) {
        if (objects != null) {
            objects[slot] = null;
        }
        meta[timeIndex(slot)] = -time - 1;
    }

    private void box(KeyArena keys) {
        int capacity = meta.length / 2;
        Object[] boxed = new Object[capacity];
        long[] times = new long[capacity];
        for (int i = 0; i < capacity; i++) {
            times[i] = meta[2 * i + 1];
            if (keys.occupied(i) && !StateTable.isTombstoneTime(times[i])) {
                boxed[i] = meta[2 * i];
            }
        }
        objects = boxed;
        meta = times;
    }

    /** Moves the value and time of slot {@code from} to slot {@code to}. */
    void move(int from, int to) {
        if (objects == null) {
            meta[2 * to] = meta[2 * from];
            meta[2 * to + 1] = meta[2 * from + 1];
        } else {
            objects[to] = objects[from];
            meta[to] = meta[from];
        }
    }

    /** Drops the reference an emptied slot holds (an unboxed slot holds none). */
    void empty(int slot) {
        if (objects != null) {
            objects[slot] = null;
        }
    }

    /** Re-lays the columns over {@code capacity} slots as {@link KeyArena#rehash} moved the keys. */
    void rehash(int capacity, int[] targets) {
        long[] oldMeta = meta;
        Object[] oldObjects = objects;
        boolean unboxed = oldObjects == null;
        allocate(capacity, unboxed);
        for (int i = 0; i < targets.length; i++) {
            int slot = targets[i];
            if (slot < 0) {
                continue;
            }
            if (unboxed) {
                meta[2 * slot] = oldMeta[2 * i];
                meta[2 * slot + 1] = oldMeta[2 * i + 1];
            } else {
                objects[slot] = oldObjects[i];
                meta[slot] = oldMeta[i];
            }
        }
    }

    /** Bytes of the columns' arrays (a reference at 4 bytes); boxed value objects are not counted. */
    long arrayBytes() {
        return slotBytes(objects == null ? meta.length / 2 : objects.length);
    }

    /** Bytes of the columns' arrays at {@code capacity} slots: a value and a time, or a time and a reference. */
    long slotBytes(long capacity) {
        return (objects == null ? 16L : 12L) * capacity;
    }

    /** Drops every value reference, keeping the capacity. */
    void clear() {
        if (objects != null) {
            Arrays.fill(objects, null);
        }
    }
}
