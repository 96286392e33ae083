package io.sluice.state.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The key column of a {@link StateTable}: open addressing with linear probing over a power-of-two number of
 * slots. It finds, places, moves and lists keys; what a slot holds besides its key is the table's business.
 *
 * <p>String keys of Latin-1 characters (up to 254 of them) are not kept as objects: their characters are
 * appended to one byte arena and a slot holds the offset, so a key costs its length plus one byte instead of a
 * 48-byte String and its array (a table of 1,000,000 String keys is some 40 MB smaller and has a million fewer
 * objects for the collector to trace). Lookups compare the probe key's characters with the arena; {@link
 * #keyAt} makes a String again when an entry is listed. The first key of another kind turns the column into
 * one of key objects, once.
 */
final class KeyArena {
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
    private int mask;

    /** An empty column of {@code capacity} slots (a power of two) in arena mode. */
    KeyArena(int capacity, int arenaBytes) {
        allocate(capacity, true);
        arena = new byte[arenaBytes];
    }

    private KeyArena(KeyArena other) {
        keys = other.keys == null ? null : other.keys.clone();
        refs = other.refs == null ? null : other.refs.clone();
        tags = other.tags == null ? null : other.tags.clone();
        if (other.arena != null) {
            arena = Arrays.copyOf(other.arena, Math.max(64, other.arenaUsed + (other.arenaUsed >> 3)));
            arenaUsed = other.arenaUsed;
            arenaGarbage = other.arenaGarbage;
        }
        mask = other.mask;
    }

    /** A private copy (array clones, and a compacted arena if removals left it half empty). */
    KeyArena copy() {
        KeyArena copy = new KeyArena(this);
        if (copy.refs != null && copy.arenaGarbage > copy.arenaUsed / 2) {
            copy.compactArena();
        }
        return copy;
    }

    private void allocate(int capacity, boolean arenaKeys) {
        if (arenaKeys) {
            refs = new int[capacity];
            tags = new byte[capacity];
            keys = null;
        } else {
            keys = new Object[capacity];
            refs = null;
            tags = null;
        }
        mask = capacity - 1;
    }

    static int hash(Object key) {
        return mix(key == null ? 0 : key.hashCode());
    }

    /** The table hash of a key whose {@code hashCode()} is {@code h}: {@code hash(key) == mix(key.hashCode())}. */
    static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        return h ^ (h >>> 16);
    }

    int capacity() {
        return refs != null ? refs.length : keys.length;
    }

    int mask() {
        return mask;
    }

    boolean inArena() {
        return refs != null;
    }

    /** The slot holding {@code key}, or {@code -(insertion point) - 1} when it is absent. */
    int find(Object key, int hash) {
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

    /**
     * Like {@code find(other.keyAt(slot), hash)}, where {@code hash} is {@code other.hashAt(slot)}; between two
     * arena columns it compares the stored characters and makes no key object.
     */
    int findFrom(KeyArena other, int slot, int hash) {
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

    /** Puts {@code key} in an empty slot; returns the slot, which moves if the column must leave arena mode. */
    int place(int slot, Object key) {
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

    /** Puts the key at {@code otherSlot} of another arena column in an empty slot of this one (both in arena mode). */
    void placeStored(int slot, KeyArena other, int otherSlot, int hash) {
        refs[slot] = appendStored(other.arena, other.refs[otherSlot]);
        tags[slot] = tag(hash);
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
        return new String(arena, ref, arena[ref - 1] & 0xFF, StandardCharsets.ISO_8859_1);
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

    /** Same as {@code hash(keyAt(slot))}, without making the key. */
    int hashAt(int slot) {
        return refs == null ? hash(keys[slot]) : mix(keyHashCodeAt(slot));
    }

    /** Same as {@code keyAt(slot).hashCode()}, without making the key (a Latin-1 String's hash of its bytes). */
    int keyHashCodeAt(int slot) {
        if (refs == null) {
            Object key = keys[slot];
            return key == null ? 0 : key.hashCode();
        }
        int r = refs[slot];
        int length = arena[r - 1] & 0xFF;
        int h = 0;
        for (int c = 0; c < length; c++) {
            h = 31 * h + (arena[r + c] & 0xFF);
        }
        return h;
    }

    boolean occupied(int slot) {
        return refs != null ? refs[slot] != 0 : keys[slot] != null;
    }

    /** The key at an occupied slot (a new String when keys are in the arena). */
    Object keyAt(int slot) {
        return refs != null ? arenaKey(refs[slot]) : keys[slot];
    }

    /** Counts the arena bytes of the key at {@code slot} as garbage; before the slot is emptied by a removal. */
    void release(int slot) {
        if (refs != null) {
            arenaGarbage += 1 + (arena[refs[slot] - 1] & 0xFF);
        }
    }

    /** Moves the key of slot {@code from} to slot {@code to} (which it overwrites); {@code from} keeps a copy. */
    void move(int from, int to) {
        if (refs != null) {
            refs[to] = refs[from];
            tags[to] = tags[from];
        } else {
            keys[to] = keys[from];
        }
    }

    void empty(int slot) {
        if (refs != null) {
            refs[slot] = 0;
        } else {
            keys[slot] = null;
        }
    }

    /**
     * Re-lays the keys over {@code capacity} slots; returns, per old slot, the slot its key moved to (-1 for an
     * empty one), for the table to move the rest of the slot along.
     */
    int[] rehash(int capacity) {
        Object[] oldKeys = keys;
        int[] oldRefs = refs;
        int oldCapacity = capacity();
        int[] targets = new int[oldCapacity];
        for (int i = 0; i < oldCapacity; i++) {
            targets[i] = occupied(i) ? hashAt(i) : 0;
        }
        allocate(capacity, oldRefs != null);
        for (int i = 0; i < oldCapacity; i++) {
            boolean used = oldRefs != null ? oldRefs[i] != 0 : oldKeys[i] != null;
            if (!used) {
                targets[i] = -1;
                continue;
            }
            int hash = targets[i];
            int slot = hash & mask;
            while (occupied(slot)) {
                slot = (slot + 1) & mask;
            }
            if (oldRefs != null) {
                refs[slot] = oldRefs[i];
                tags[slot] = tag(hash);
            } else {
                keys[slot] = oldKeys[i];
            }
            targets[i] = slot;
        }
        return targets;
    }

    /** The next occupied slot at or after {@code from}, or -1. */
    int nextSlot(int from) {
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

    /** Bytes of the column's arrays (a reference at 4 bytes, compressed oops); key objects are not counted. */
    long arrayBytes() {
        return slotBytes(capacity()) + (arena == null ? 0 : arena.length);
    }

    /** Bytes of the per-slot arrays at {@code capacity} slots (the arena is not reallocated by a rehash). */
    long slotBytes(long capacity) {
        return (refs != null ? 5L : 4L) * capacity;
    }

    /** Empties every slot, keeping the capacity. */
    void clear() {
        if (refs != null) {
            Arrays.fill(refs, 0);
            arenaUsed = 0;
            arenaGarbage = 0;
        } else {
            Arrays.fill(keys, null);
        }
    }
}
