package io.sluice.rdd;

import java.io.Serializable;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Something kept per batch time (an RDD, a batch's counters, a source's offsets) until the batch is forgotten:
 * the one map the engine, the state layer and the connectors keep per-batch bookkeeping in, so that forgetting
 * old batches is written once. Safe for concurrent use (a skip list): the event loop forgets while a user thread
 * or a source adds; each forget returns what it removed, oldest first, to release what those entries hold.
 */
public final class BatchTimeMap<V> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final ConcurrentSkipListMap<Time, V> byTime = new ConcurrentSkipListMap<>();

    public void put(Time time, V value) {
        byTime.put(time, value);
    }

    /** The value of batch {@code time}, or empty when there is none (never kept, or forgotten). */
    public Optional<V> get(Time time) {
        return Optional.ofNullable(byTime.get(time));
    }

    /** The value of batch {@code time}, made by {@code make} if there is none. */
    public V computeIfAbsent(Time time, Function<Time, V> make) {
        return byTime.computeIfAbsent(time, make);
    }

    /** Removes the value of batch {@code time}, returning it if there was one. */
    public Optional<V> remove(Time time) {
        return Optional.ofNullable(byTime.remove(time));
    }

    /** The newest entry at or before {@code time}, if any. */
    public Optional<Map.Entry<Time, V>> atOrBefore(Time time) {
        return Optional.ofNullable(byTime.floorEntry(time));
    }

    /** The newest entry strictly before {@code time}, if any. */
    public Optional<Map.Entry<Time, V>> before(Time time) {
        return Optional.ofNullable(byTime.lowerEntry(time));
    }

    /** The newest entry, if any. */
    public Optional<Map.Entry<Time, V>> newest() {
        return Optional.ofNullable(byTime.lastEntry());
    }

    /** Hands each entry to {@code action}, oldest batch first. */
    public void forEach(BiConsumer<Time, V> action) {
        byTime.forEach(action);
    }

    /** The values, oldest batch first (a live view). */
    public Collection<V> values() {
        return byTime.values();
    }

    public int size() {
        return byTime.size();
    }

    public boolean isEmpty() {
        return byTime.isEmpty();
    }

    /** Forgets every batch. */
    public void clear() {
        byTime.clear();
    }

    /** Forgets the batches up to and including {@code time}; returns what it removed, oldest first. */
    public NavigableMap<Time, V> forgetThrough(Time time) {
        return removeAll(byTime.headMap(time, true));
    }

    /** Forgets the batches strictly before {@code time} (keeping {@code time}'s); returns what it removed. */
    public NavigableMap<Time, V> forgetBefore(Time time) {
        return removeAll(byTime.headMap(time, false));
    }

    private static <V> NavigableMap<Time, V> removeAll(NavigableMap<Time, V> old) {
        NavigableMap<Time, V> removed = new TreeMap<>();
        for (Iterator<Map.Entry<Time, V>> it = old.entrySet().iterator(); it.hasNext();) {
            Map.Entry<Time, V> e = it.next();
            removed.put(e.getKey(), e.getValue());
            it.remove();
        }
        return removed;
    }

    @Override
    public String toString() {
        return byTime.toString();
    }
}
