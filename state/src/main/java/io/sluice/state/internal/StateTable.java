package io.sluice.state.internal;

/**
 * A hash table from keys to state values and last-update times, laid out as arrays so that an entry costs a key
 * reference (or a few arena bytes), a value and a time: no entry objects. Its keys are a {@link KeyArena} (open
 * addressing, linear probing, power-of-two capacity; short Latin-1 String keys kept as bytes), its values and
 * times {@link SlotValues} (unboxed while every value is a Long), slot for slot; this class keeps the two in step
 * and grows them together.
 *
 * <p>A table is mutated only by the one transition that owns it; once published in a {@link StateVersion} it
 * is never mutated again (the next version copies it). In a delta table a negative time marks a removal
 * ({@link #tombstone}), so that a delta can shadow a key of its base.
 */
public final class StateTable {
    static final int MIN_CAPACITY = 16;
    private static final float MAX_LOAD = 0.7f;

    private final KeyArena keys;
    private final SlotValues values;
    private int size;
    private int resizeAt;

    public StateTable(int expectedSize) {
        int capacity = capacityFor(expectedSize);
        keys = new KeyArena(capacity, Math.max(64, Math.min(expectedSize, 1 << 20) * 8));
        values = new SlotValues(capacity);
        resizeAt = (int) (capacity * MAX_LOAD);
    }

    private StateTable(StateTable other) {
        keys = other.keys.copy();
        values = other.values.copy();
        size = other.size;
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

    /** A private, mutable copy (array clones: no per-entry work, unless removals left the arena half empty). */
    public StateTable copy() {
        return new StateTable(this);
    }

    public static int hash(Object key) {
        return KeyArena.hash(key);
    }

    /**
     * The slot holding {@code key}, or {@code -(insertion point) - 1} when it is absent. The insertion point
     * stays valid until the table is next modified.
     */
    public int find(Object key, int hash) {
        return keys.find(key, hash);
    }

    public int find(Object key) {
        return keys.find(key, hash(key));
    }

    /** Same as {@code hash(keyAt(slot))}, without making the key. */
    public int hashAt(int slot) {
        return keys.hashAt(slot);
    }

    /** Same as {@code keyAt(slot).hashCode()}, without making the key (what key groups are computed from). */
    public int keyHashCodeAt(int slot) {
        return keys.keyHashCodeAt(slot);
    }

    /** Inserts a new key at an insertion point {@link #find} returned (encoded as it returned it). */
    public void insertAt(int encodedInsertionPoint, Object key, Object value, long time) {
        int slot = keys.place(-encodedInsertionPoint - 1, key);
        values.setValue(slot, value, keys);
        values.setTime(slot, time);
        if (++size > resizeAt) {
            rehash(capacity() << 1);
        }
    }

    /** Inserts a removal marker for a key only the base holds (delta tables only). */
    public void insertTombstoneAt(int encodedInsertionPoint, Object key, long time) {
        int slot = keys.place(-encodedInsertionPoint - 1, key);
        values.tombstone(slot, time);
        if (++size > resizeAt) {
            rehash(capacity() << 1);
        }
    }

    /** Inserts or overwrites. */
    public void put(Object key, int hash, Object value, long time) {
        int slot = keys.find(key, hash);
        if (slot >= 0) {
            values.setValue(slot, value, keys);
            values.setTime(slot, time);
        } else {
            insertAt(slot, key, value, time);
        }
    }

    public void put(Object key, Object value, long time) {
        put(key, hash(key), value, time);
    }

    /**
     * Like {@code find(other.keyAt(slot), hash)}, where {@code hash} is {@code other.hashAt(slot)}; between two
     * arena tables it compares the stored characters and makes no key object.
     */
    public int findFrom(StateTable other, int slot, int hash) {
        return keys.findFrom(other.keys, slot, hash);
    }

    /** Like {@code put(other.keyAt(slot), hash, value, time)}, copying an arena key's characters as they are. */
    public void putFrom(StateTable other, int slot, int hash, Object value, long time) {
        if (!keys.inArena() || !other.keys.inArena()) {
            put(other.keyAt(slot), hash, value, time);
            return;
        }
        int s = keys.findFrom(other.keys, slot, hash);
        if (s < 0) {
            s = -s - 1;
            keys.placeStored(s, other.keys, slot, hash);
            size++;
        }
        values.setValue(s, value, keys);
        values.setTime(s, time);
        if (size > resizeAt) {
            rehash(capacity() << 1);
        }
    }

    public void setValue(int slot, Object value) {
        values.setValue(slot, value, keys);
    }

    public void setTime(int slot, long time) {
        values.setTime(slot, time);
    }

    /** Marks the key at {@code slot} removed as of {@code time} (delta tables only). */
    public void tombstone(int slot, long time) {
        values.tombstone(slot, time);
    }

    public static boolean isTombstoneTime(long time) {
        return time < 0;
    }

    /** The batch time of a tombstone's removal. */
    public static long removalTime(long tombstoneTime) {
        return -tombstoneTime - 1;
    }

    /** Removes the key at {@code slot}, shifting later entries of its probe run back (no tombstones). */
    public void removeAt(int slot) {
        keys.release(slot);
        int mask = keys.mask();
        int hole = slot;
        int i = slot;
        while (true) {
            i = (i + 1) & mask;
            if (!keys.occupied(i)) {
                break;
            }
            int home = keys.hashAt(i) & mask;
            // move the entry into the hole unless its home lies cyclically in (hole, i]
            boolean stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!stays) {
                keys.move(i, hole);
                values.move(i, hole);
                hole = i;
            }
        }
        keys.empty(hole);
        values.empty(hole);
        size--;
    }

    private void rehash(int capacity) {
        values.rehash(capacity, keys.rehash(capacity));
        resizeAt = (int) (capacity * MAX_LOAD);
    }

    /** Grows the table ahead of {@code expectedSize} entries (avoids rehashing during a bulk load). */
    public void ensureCapacity(int expectedSize) {
        int cap = capacityFor(expectedSize);
        if (cap > capacity()) {
            rehash(cap);
        }
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return keys.capacity();
    }

    /** The key at an occupied slot (a new String when keys are in the arena). */
    public Object keyAt(int slot) {
        return keys.keyAt(slot);
    }

    /** Whether keys are kept in the byte arena (every key so far a short Latin-1 String). */
    public boolean keysInArena() {
        return keys.inArena();
    }

    public Object valueAt(int slot) {
        return values.valueAt(slot);
    }

    public long timeAt(int slot) {
        return values.timeAt(slot);
    }

    /** Whether values are stored unboxed (every value so far was a Long). */
    public boolean isUnboxed() {
        return values.isUnboxed();
    }

    /** The next occupied slot at or after {@code from}, or -1. */
    public int nextSlot(int from) {
        return keys.nextSlot(from);
    }

    /**
     * The memory this table holds, estimated cheaply: its arrays from their lengths, plus, where keys or values
     * are objects, their number times the mean size (Spark's {@code SizeEstimator}) of a few evenly spaced ones.
     * Costs a handful of estimates whatever the size, never a pass over the entries.
     */
    public long estimatedBytes() {
        long bytes = keys.arrayBytes() + values.arrayBytes();
        if (!keys.inArena()) {
            bytes += size * meanObjectBytes(true);
        }
        if (!values.isUnboxed()) {
            bytes += size * meanObjectBytes(false);
        }
        return bytes;
    }

    /**
     * The bytes its next growth allocates while the current arrays are still held: the columns at twice the
     * capacity and the map from old slots to new. It grows when an insertion makes it fuller than {@code
     * MAX_LOAD} (or when {@link #ensureCapacity} asks for more).
     */
    public long growthBytes() {
        long grown = 2L * capacity();
        return keys.slotBytes(grown) + values.slotBytes(grown) + 4L * capacity();
    }

    /** The mean size of a key as an object (an arena key is made into a String to be sized), or 0 if empty. */
    long meanKeyObjectBytes() {
        return meanObjectBytes(true);
    }

    private long meanObjectBytes(boolean ofKeys) {
        final int samples = 8;
        long sum = 0;
        int sized = 0;
        int last = -1;
        for (int i = 0; i < samples && size > 0; i++) {
            int slot = nextSlot((int) ((long) capacity() * i / samples));
            if (slot < 0 || slot == last) {
                continue;
            }
            last = slot;
            Object o = ofKeys ? keys.keyAt(slot) : values.valueAt(slot);
            if (o != null) { // a delta's removal has no value
                sum += org.apache.spark.util.SizeEstimator.estimate(o);
                sized++;
            }
        }
        return sized == 0 ? 0 : sum / sized;
    }

    /** Drops all entries, keeping the capacity. */
    public void clear() {
        keys.clear();
        values.clear();
        size = 0;
    }
}
