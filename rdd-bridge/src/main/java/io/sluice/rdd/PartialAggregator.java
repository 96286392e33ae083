package io.sluice.rdd;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * Combines the records of one map task by key before they are shuffled, in an open-addressing hash table of
 * bounded size: when the table is full its combiners are emitted and it starts over, so memory stays bounded
 * whatever the input, and the reduce side merges whatever was emitted more than once.
 *
 * <p>Spark's own map-side combine keeps all combiners of a task (spilling to disk) and then sorts them by
 * partition and key hash before writing; for a micro-batch that sort is most of the shuffle's cost. Emitting
 * straight from a hash table lets Spark write the shuffle without sorting (its bypass path).
 */
final class PartialAggregator<K, V, C> implements Iterator<Tuple2<K, C>> {
    static final int DEFAULT_MAX_ENTRIES = 1 << 18;
    private static final Object NULL_KEY = new Object();

    private final Iterator<Tuple2<K, V>> input;
    private final Function<V, C> createCombiner;
    private final Function2<C, V, C> mergeValue;
    private final int maxEntries;
    private Object[] keys;
    private Object[] combiners;
    private int size;
    private int drainPosition = -1; // >= 0 while emitting the table's entries

    PartialAggregator(Iterator<Tuple2<K, V>> input, Function<V, C> createCombiner, Function2<C, V, C> mergeValue,
            int maxEntries) {
        this.input = input;
        this.createCombiner = createCombiner;
        this.mergeValue = mergeValue;
        this.maxEntries = maxEntries;
        allocate(64);
    }

    @Override
    public boolean hasNext() {
        if (drainPosition < 0) {
            fill();
        }
        while (drainPosition < keys.length && keys[drainPosition] == null) {
            drainPosition++;
        }
        if (drainPosition < keys.length) {
            return true;
        }
        if (!input.hasNext()) {
            return false;
        }
        // The table was drained because it was full; combine the rest of the input in a fresh one.
        allocate(keys.length);
        size = 0;
        drainPosition = -1;
        return hasNext();
    }

    @Override
    @SuppressWarnings("unchecked")
    public Tuple2<K, C> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Object key = keys[drainPosition];
        C combiner = (C) combiners[drainPosition];
        keys[drainPosition] = null;
        combiners[drainPosition] = null;
        drainPosition++;
        return new Tuple2<>(key == NULL_KEY ? null : (K) key, combiner);
    }

    private void fill() {
        try {
            while (size < maxEntries && input.hasNext()) {
                Tuple2<K, V> record = input.next();
                add(record._1() == null ? NULL_KEY : record._1(), record._2());
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        drainPosition = 0;
    }

    @SuppressWarnings("unchecked")
    private void add(Object key, V value) throws Exception {
        int mask = keys.length - 1;
        int slot = spread(key.hashCode()) & mask;
        while (true) {
            Object existing = keys[slot];
            if (existing == null) {
                keys[slot] = key;
                combiners[slot] = createCombiner.call(value);
                if (++size * 2 > keys.length) {
                    grow();
                }
                return;
            }
            if (existing == key || existing.equals(key)) {
                combiners[slot] = mergeValue.call((C) combiners[slot], value);
                return;
            }
            slot = (slot + 1) & mask;
        }
    }

    private void grow() {
        Object[] oldKeys = keys;
        Object[] oldCombiners = combiners;
        allocate(oldKeys.length * 2);
        int mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            Object key = oldKeys[i];
            if (key != null) {
                int slot = spread(key.hashCode()) & mask;
                while (keys[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = key;
                combiners[slot] = oldCombiners[i];
            }
        }
    }

    private void allocate(int capacity) {
        keys = new Object[capacity];
        combiners = new Object[capacity];
    }

    private static int spread(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
