package io.sluice.rdd.internal;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoSerializable;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * Keys with their combined values, for aggregating one partition: an open-addressing hash table (linear
 * probing, key hashes kept beside the keys). Probing compares hashes before it touches a key, growing never
 * touches a key, merging one map into another reuses the hashes already computed, and a copy is three array
 * copies instead of one allocated node per key (an incremental window is a copy of the previous one plus
 * updates). Used for map-side combining ({@link PartialAggregator}) and for the maps windows keep.
 *
 * <p>Null keys and null values are allowed (as in Spark's reduceByKey); a null value stays distinct from a
 * missing key. Written by Kryo and by Java serialization as its entries, for checkpoints and evicted blocks.
 */
public final class KeyedMap<K, V> implements Serializable, KryoSerializable {
    private static final long serialVersionUID = 1L;
    private static final Object NULL = new Object(); // a null key or value, as stored
    private static final int MIN_CAPACITY = 16;

    private transient Object[] keys;
    private transient Object[] values;
    private transient int[] hashes;
    private transient int size;

    public KeyedMap() {
        this(0);
    }

    public KeyedMap(int expectedSize) {
        allocate(capacityFor(expectedSize));
    }

    private KeyedMap(KeyedMap<K, V> other) {
        keys = other.keys.clone();
        values = other.values.clone();
        hashes = other.hashes.clone();
        size = other.size;
    }

    public int size() {
        return size;
    }

    /** An independent copy: changing either map leaves the other as it was. */
    public KeyedMap<K, V> copy() {
        return new KeyedMap<>(this);
    }

    /** Adds {@code value} under {@code key}: as it is when the key is new, else {@code f(current, value)}. */
    public void merge(K key, V value, Function2<V, V, V> f) throws Exception {
        combine(key, value, null, f);
    }

    /**
     * Adds {@code value} under {@code key}: {@code create(value)} when the key is new, else
     * {@code mergeValue(current, value)}; a null {@code create} keeps the value as it is (W is then V).
     */
    public <W> void combine(K key, W value, Function<W, V> create, Function2<V, W, V> mergeValue) throws Exception {
        Object stored = key == null ? NULL : key;
        combine(stored, spread(stored.hashCode()), value, create, mergeValue);
    }

    /** Merges every entry of {@code other} into this map with {@code f}, as {@link #merge} does. */
    public void mergeAll(KeyedMap<K, V> other, Function2<V, V, V> f) throws Exception {
        for (int i = 0; i < other.keys.length; i++) {
            if (other.keys[i] != null) {
                combine(other.keys[i], other.hashes[i], other.value(i), null, f);
            }
        }
    }

    /**
     * For each key of {@code other} that this map holds, replaces its value by {@code f(current, other's)}; keys
     * this map does not hold are ignored.
     */
    public void updateAllPresent(KeyedMap<K, V> other, Function2<V, V, V> f) throws Exception {
        for (int i = 0; i < other.keys.length; i++) {
            if (other.keys[i] != null) {
                int slot = find(other.keys[i], other.hashes[i]);
                if (keys[slot] != null) {
                    values[slot] = wrap(f.call(value(slot), other.value(i)));
                }
            }
        }
    }

    /** The entries {@code keep} accepts, as a new map. */
    public KeyedMap<K, V> filtered(Function<Tuple2<K, V>, Boolean> keep) throws Exception {
        KeyedMap<K, V> kept = new KeyedMap<>(size);
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null && keep.call(new Tuple2<>(key(i), value(i)))) {
                kept.insert(keys[i], hashes[i], values[i]);
            }
        }
        return kept;
    }

    /** The entries as (key, value) pairs, in no particular order. */
    public Iterator<Tuple2<K, V>> records() {
        return new Iterator<>() {
            private int next = advance(0);

            private int advance(int from) {
                while (from < keys.length && keys[from] == null) {
                    from++;
                }
                return from;
            }

            @Override
            public boolean hasNext() {
                return next < keys.length;
            }

            @Override
            public Tuple2<K, V> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Tuple2<K, V> record = new Tuple2<>(key(next), value(next));
                next = advance(next + 1);
                return record;
            }
        };
    }

    private <W> void combine(Object storedKey, int hash, W value, Function<W, V> create, Function2<V, W, V> f)
            throws Exception {
        int slot = find(storedKey, hash);
        if (keys[slot] == null) {
            insertAt(slot, storedKey, hash, wrap(create == null ? value : create.call(value)));
        } else {
            values[slot] = wrap(f.call(value(slot), value));
        }
    }

    /** The slot holding {@code storedKey}, or the empty slot where it would go. */
    private int find(Object storedKey, int hash) {
        int mask = keys.length - 1;
        int slot = hash & mask;
        while (true) {
            Object k = keys[slot];
            if (k == null || (hashes[slot] == hash && (k == storedKey || k.equals(storedKey)))) {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
    }

    private void insert(Object storedKey, int hash, Object storedValue) {
        insertAt(find(storedKey, hash), storedKey, hash, storedValue);
    }

    private void insertAt(int slot, Object storedKey, int hash, Object storedValue) {
        keys[slot] = storedKey;
        hashes[slot] = hash;
        values[slot] = storedValue;
        if (++size > keys.length / 2) {
            grow();
        }
    }

    private void grow() {
        Object[] oldKeys = keys;
        Object[] oldValues = values;
        int[] oldHashes = hashes;
        allocate(oldKeys.length * 2);
        int mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                int slot = oldHashes[i] & mask;
                while (keys[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = oldKeys[i];
                hashes[slot] = oldHashes[i];
                values[slot] = oldValues[i];
            }
        }
    }

    private void allocate(int capacity) {
        keys = new Object[capacity];
        values = new Object[capacity];
        hashes = new int[capacity];
    }

    @SuppressWarnings("unchecked")
    private K key(int slot) {
        return keys[slot] == NULL ? null : (K) keys[slot];
    }

    @SuppressWarnings("unchecked")
    private V value(int slot) {
        return values[slot] == NULL ? null : (V) values[slot];
    }

    private static Object wrap(Object value) {
        return value == null ? NULL : value;
    }

    /** A power of two that holds {@code expectedSize} entries at most half full. */
    private static int capacityFor(int expectedSize) {
        int capacity = MIN_CAPACITY;
        while (capacity / 2 < expectedSize) {
            capacity *= 2;
        }
        return capacity;
    }

    private static int spread(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    // Serialized as its entries; null keys and values as null. Kryo without reference tracking, as state is:
    // a window's values hold no shared or cyclic references, and tracking every key would grow the identity
    // map of a pooled Kryo instance, which Kryo then clears after every later object it writes.

    @Override
    public void write(Kryo kryo, Output out) {
        out.writeInt(size, true);
        boolean references = kryo.setReferences(false);
        try {
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] != null) {
                    kryo.writeClassAndObject(out, key(i));
                    kryo.writeClassAndObject(out, value(i));
                }
            }
        } finally {
            kryo.setReferences(references);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void read(Kryo kryo, Input in) {
        int count = in.readInt(true);
        allocate(capacityFor(count));
        boolean references = kryo.setReferences(false);
        try {
            for (int i = 0; i < count; i++) {
                Object key = wrap(kryo.readClassAndObject(in));
                insert(key, spread(key.hashCode()), wrap(kryo.readClassAndObject(in)));
            }
        } finally {
            kryo.setReferences(references);
        }
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        out.writeInt(size);
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                out.writeObject(key(i));
                out.writeObject(value(i));
            }
        }
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        int count = in.readInt();
        allocate(capacityFor(count));
        for (int i = 0; i < count; i++) {
            Object key = wrap(in.readObject());
            insert(key, spread(key.hashCode()), wrap(in.readObject()));
        }
    }
}
