package io.sluice.state.internal;

import java.util.Iterator;

/**
 * Builds the next {@link StateVersion} of a partition from the previous one, one key at a time, without changing
 * the previous version. Single-threaded, used by one task.
 *
 * <p>Callers {@link #lookup} a key first; {@link #exists}, {@link #value} and {@link #lastUpdate} then describe
 * it, and {@link #put}/{@link #remove}/{@link #touch} act on it.
 */
public interface StateWriter<K, S> {
    /**
     * Lets the writer read ahead the keys of a batch's records before they are looked up one by one (a backend on
     * disk reads them all at once); returns the records to process, in their order.
     */
    default <V> Iterator<scala.Tuple2<K, V>> readAhead(Iterator<scala.Tuple2<K, V>> records) {
        return records;
    }

    /** Finds {@code key}; afterwards {@link #exists()}, {@link #value()} and {@link #lastUpdate()} describe it. */
    void lookup(Object key);

    boolean exists();

    S value();

    long lastUpdate();

    /** Sets the looked-up key's state, updated at this batch. */
    void put(Object key, Object newValue);

    /** Marks the looked-up key as updated at this batch without changing its state (it received data). */
    void touch(Object key);

    /** Removes the looked-up key's state (a no-op when it has none). */
    void remove(Object key);

    /** Receives a key whose state timed out, with that state, before the key is removed. */
    @FunctionalInterface
    interface TimeoutHandler<K, S> {
        void timingOut(K key, S state) throws Exception;
    }

    /**
     * Removes every key last updated before {@code threshold} (batch time minus the timeout), first handing it to
     * {@code handler}; visits only the keys that expire, not the whole state.
     */
    void expire(long threshold, TimeoutHandler<K, S> handler) throws Exception;

    /** The new version; the writer must not be used afterwards. */
    StateVersion<K, S> finish();
}
