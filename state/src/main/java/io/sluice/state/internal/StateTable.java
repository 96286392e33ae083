package io.sluice.state.internal;

import java.util.Arrays;

/**
 * An open-addressing hash table (linear probing, power-of-two capacity) from keys to state values and
 * last-update times, laid out as arrays so that an entry costs a key reference, a value and a time: no entry
 * objects. While every value is a {@link Long} the values live unboxed next to their times in one {@code
 * long[]} (value and time of a slot share a cache line); the first value of another type moves the values to
 * an {@code Object[]} once.
 *
 * <p>String keys of Latin-1 characters (up to 254 of them) are not kept as objects: their characters are
 * appended to one byte arena and a slot holds the offset, so a key costs its length plus one byte instead of a
 * 48-byte String and its array (a table of 1,000,000 String keys is some 40 MB smaller and has a million fewer
 * objects for the collector to trace). Lookups compare the probe key's characters with the arena; {@link
 * #keyAt} makes a String again when an entry is listed. The first key of another kind turns the table into
 * one of key objects, once.
 *
 * <p>A table is mutated only by the one transition that owns it; once published in a {@link StateVersion} it
 * is never mutated again (the next version copies it). In a delta table a negative time marks a removal
 * ({@link #tombstone}), so that a delta can shadow a key of its base.
 */
public final class StateTable {
    static final int MIN_CAPACITY = 16;
    private static final float MAX_LOAD = 0.7f;

    private static final int MAX_ARENA_KEY = 254;

    /** Key objects, or null while keys are in the arena. */
    private Object[] keys;
    /** Arena mode: 1 + the offset of slot i's key in {@code arena}, 0 for an empty slot. */
    private int[] refs;
    /**
     * Arena mode: the top eight bits of slot i's hash, compared before the key's characters, so that a probe
     * past another key rarely reads the arena (one cache miss saved per probe).
     */
    private byte[] tags;
    /** Arena mode: per key its length (one byte) and its Latin-1 characters. */
    private byte[] arena;
    private int arenaUsed;
    private int arenaGarbage;
    /** Unboxed: value of slot i at 2i, time at 2i+1. Boxed: time of slot i at i (values in objects). */
    private long[] meta;
    private Object[] objects;
    private int size;
    private int mask;
    private int resizeAt;

    public StateTable(int expectedSize) {
        allocate(capacityFor(expectedSize), true, true);
        arena = new byte[Math.max(64, Math.min(expectedSize, 1 << 20) * 8)];
    }

    private StateTable(StateTable other) {
        keys = other.keys == null ? null : other.keys.clone();
        refs = other.refs == null ? null : other.refs.clone();
        tags = other.tags == null ? null : other.tags.clone();
        if (other.arena != null) {
            arena = Arrays.copyOf(other.arena, Math.max(64, other.arenaUsed + (other.arenaUsed >> 3)));
            arenaUsed = other.arenaUsed;
            arenaGarbage = other.arenaGarbage;
        }
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

    private void allocate(int capacity, boolean unboxed, boolean arenaKeys) {
        if (arenaKeys) {
            refs = new int[capacity];
            tags = new byte[capacity];
            keys = null;
        } else {
            keys = new Object[capacity];
            refs = null;
            tags = null;
        }
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

    /** A private, mutable copy (array clones: no per-entry work, unless removals left the arena half empty). */
    public StateTable copy() {
        StateTable copy = new StateTable(this);
        if (copy.refs != null && copy.arenaGarbage > copy.arenaUsed / 2) {
            copy.compactArena();
        }
        return copy;
    }

    public static int hash(Object key) {
        return mix(key == null ? 0 : key.hashCode());
    }

    private static int mix(int h) {
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
        if (refs != null) {
            return findInArena(key, hash);
        }
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

    private int findInArena(Object key, int hash) {
        int[] rs = refs;
        int i = hash & mask;
        if (!(key instanceof String s)) {
            while (rs[i] != 0) {
                i = (i + 1) & mask;
            }
            return -i - 1;
        }
        byte[] ts = tags;
        byte tag = tag(hash);
        byte[] a = arena;
        int length = s.length();
        while (true) {
            int r = rs[i];
            if (r == 0) {
                return -i - 1;
            }
            if (ts[i] == tag && (a[r - 1] & 0xFF) == length && sameChars(a, r, s, length)) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    private static byte tag(int hash) {
        return (byte) (hash >>> 24);
    }

    private static boolean sameChars(byte[] a, int from, String s, int length) {
        for (int c = 0; c < length; c++) {
            if ((a[from + c] & 0xFF) != s.charAt(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean fitsArena(Object key) {
        if (!(key instanceof String s) || s.length() > MAX_ARENA_KEY) {
            return false;
        }
        for (int c = 0; c < s.length(); c++) {
            if (s.charAt(c) > 0xFF) {
                return false;
            }
        }
        return true;
    }

    private int append(String s) {
        int length = s.length();
        if (arenaUsed + length + 1 > arena.length) {
            arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + length + 1));
        }
        int at = arenaUsed;
        arena[at] = (byte) length;
        for (int c = 0; c < length; c++) {
            arena[at + 1 + c] = (byte) s.charAt(c);
        }
        arenaUsed = at + 1 + length;
        return at + 1;
    }

    /** Appends a key stored at {@code ref} of another arena; returns its ref here. */
    private int appendStored(byte[] from, int ref) {
        int length = from[ref - 1] & 0xFF;
        if (arenaUsed + length + 1 > arena.length) {
            arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + length + 1));
        }
        int at = arenaUsed;
        System.arraycopy(from, ref - 1, arena, at, length + 1);
        arenaUsed = at + 1 + length;
        return at + 1;
    }

    private String arenaKey(int ref) {
        return new String(arena, ref, arena[ref - 1] & 0xFF, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Same as {@code hash(keyAt(slot))}, without making the key. */
    public int hashAt(int slot) {
        if (refs == null) {
            return hash(keys[slot]);
        }
        int r = refs[slot];
        int length = arena[r - 1] & 0xFF;
        int h = 0;
        for (int c = 0; c < length; c++) {
            h = 31 * h + (arena[r + c] & 0xFF);
        }
        return mix(h);
    }

    private boolean occupied(int slot) {
        return refs != null ? refs[slot] != 0 : keys[slot] != null;
    }

    /** Puts {@code key} in an empty slot; returns the slot, which moves if the table must leave arena mode. */
    private int placeKey(int slot, Object key) {
        if (refs != null) {
            if (fitsArena(key)) {
                refs[slot] = append((String) key);
                tags[slot] = tag(hash(key));
                return slot;
            }
            toKeyObjects();
            slot = -find(key, hash(key)) - 1;
        }
        keys[slot] = key;
        return slot;
    }

    private void toKeyObjects() {
        Object[] objectKeys = new Object[refs.length];
        for (int i = 0; i < refs.length; i++) {
            if (refs[i] != 0) {
                objectKeys[i] = arenaKey(refs[i]);
            }
        }
        keys = objectKeys;
        refs = null;
        tags = null;
        arena = null;
        arenaUsed = 0;
        arenaGarbage = 0;
    }

    private void compactArena() {
        byte[] old = arena;
        arena = new byte[Math.max(64, arenaUsed - arenaGarbage + 64)];
        arenaUsed = 0;
        arenaGarbage = 0;
        for (int i = 0; i < refs.length; i++) {
            int r = refs[i];
            if (r != 0) {
                int length = old[r - 1] & 0xFF;
                int at = arenaUsed;
                System.arraycopy(old, r - 1, arena, at, length + 1);
                arenaUsed = at + 1 + length;
                refs[i] = at + 1;
            }
        }
    }

    private int timeIndex(int slot) {
        return objects == null ? 2 * slot + 1 : slot;
    }

    /** Inserts a new key at an insertion point {@link #find} returned (encoded as it returned it). */
    public void insertAt(int encodedInsertionPoint, Object key, Object value, long time) {
        int slot = placeKey(-encodedInsertionPoint - 1, key);
        setValue(slot, value);
        meta[timeIndex(slot)] = time;
        if (++size > resizeAt) {
            rehash(capacity() << 1);
        }
    }

    /** Inserts a removal marker for a key only the base holds (delta tables only). */
    public void insertTombstoneAt(int encodedInsertionPoint, Object key, long time) {
        int slot = placeKey(-encodedInsertionPoint - 1, key);
        tombstone(slot, time);
        if (++size > resizeAt) {
            rehash(capacity() << 1);
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

    /**
     * Like {@code find(other.keyAt(slot), hash)}, where {@code hash} is {@code other.hashAt(slot)}; between two
     * arena tables it compares the stored characters and makes no key object.
     */
    public int findFrom(StateTable other, int slot, int hash) {
        if (refs == null || other.refs == null) {
            return find(other.keyAt(slot), hash);
        }
        byte[] theirs = other.arena;
        int from = other.refs[slot];
        int length = theirs[from - 1] & 0xFF;
        int[] rs = refs;
        byte[] ts = tags;
        byte tag = tag(hash);
        byte[] a = arena;
        int i = hash & mask;
        while (true) {
            int r = rs[i];
            if (r == 0) {
                return -i - 1;
            }
            if (ts[i] == tag && (a[r - 1] & 0xFF) == length && Arrays.equals(a, r, r + length, theirs, from, from + length)) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /** Like {@code put(other.keyAt(slot), hash, value, time)}, copying an arena key's characters as they are. */
    public void putFrom(StateTable other, int slot, int hash, Object value, long time) {
        if (refs == null || other.refs == null) {
            put(other.keyAt(slot), hash, value, time);
            return;
        }
        int s = findFrom(other, slot, hash);
        if (s < 0) {
            s = -s - 1;
            refs[s] = appendStored(other.arena, other.refs[slot]);
            tags[s] = tag(hash);
            size++;
        }
        setValue(s, value);
        meta[timeIndex(s)] = time;
        if (size > resizeAt) {
            rehash(capacity() << 1);
        }
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
        int capacity = capacity();
        Object[] boxed = new Object[capacity];
        long[] times = new long[capacity];
        for (int i = 0; i < capacity; i++) {
            times[i] = meta[2 * i + 1];
            if (occupied(i) && !isTombstoneTime(times[i])) {
                boxed[i] = meta[2 * i];
            }
        }
        objects = boxed;
        meta = times;
    }

    /** Removes the key at {@code slot}, shifting later entries of its probe run back (no tombstones). */
    public void removeAt(int slot) {
        if (refs != null) {
            arenaGarbage += 1 + (arena[refs[slot] - 1] & 0xFF);
        }
        int hole = slot;
        int i = slot;
        while (true) {
            i = (i + 1) & mask;
            if (!occupied(i)) {
                break;
            }
            int home = hashAt(i) & mask;
            // move the entry into the hole unless its home lies cyclically in (hole, i]
            boolean stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!stays) {
                if (refs != null) {
                    refs[hole] = refs[i];
                    tags[hole] = tags[i];
                } else {
                    keys[hole] = keys[i];
                }
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
        if (refs != null) {
            refs[hole] = 0;
        } else {
            keys[hole] = null;
        }
        if (objects != null) {
            objects[hole] = null;
        }
        size--;
    }

    private void rehash(int capacity) {
        Object[] oldKeys = keys;
        int[] oldRefs = refs;
        long[] oldMeta = meta;
        Object[] oldObjects = objects;
        boolean unboxed = oldObjects == null;
        int oldCapacity = oldRefs != null ? oldRefs.length : oldKeys.length;
        int[] hashes = new int[oldCapacity];
        for (int i = 0; i < oldCapacity; i++) {
            if (occupied(i)) {
                hashes[i] = hashAt(i);
            }
        }
        allocate(capacity, unboxed, oldRefs != null);
        for (int i = 0; i < oldCapacity; i++) {
            boolean used = oldRefs != null ? oldRefs[i] != 0 : oldKeys[i] != null;
            if (used) {
                int slot = hashes[i] & mask;
                while (occupied(slot)) {
                    slot = (slot + 1) & mask;
                }
                if (oldRefs != null) {
                    refs[slot] = oldRefs[i];
                    tags[slot] = tag(hashes[i]);
                } else {
                    keys[slot] = oldKeys[i];
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
        return refs != null ? refs.length : keys.length;
    }

    /** The key at an occupied slot (a new String when keys are in the arena). */
    public Object keyAt(int slot) {
        return refs != null ? arenaKey(refs[slot]) : keys[slot];
    }

    /** Whether keys are kept in the byte arena (every key so far a short Latin-1 String). */
    public boolean keysInArena() {
        return refs != null;
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
        if (refs != null) {
            int[] rs = refs;
            for (int i = from; i < rs.length; i++) {
                if (rs[i] != 0) {
                    return i;
                }
            }
            return -1;
        }
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
        if (refs != null) {
            Arrays.fill(refs, 0);
            arenaUsed = 0;
            arenaGarbage = 0;
        } else {
            Arrays.fill(keys, null);
        }
        if (objects != null) {
            Arrays.fill(objects, null);
        }
        size = 0;
    }
}
