package io.sluice.state.internal;

import java.util.Iterator;
import java.util.function.BiFunction;

/**
 * The state of one partition after one batch: an immutable version, whatever holds it (a {@link StateBackend}:
 * heap tables, or a RocksDB snapshot). The next batch's version is made from it by a {@link #writer} and never
 * changes it, so recomputing or retrying a batch always starts from exactly the state of the batch before.
 *
 * @param <K> key type
 * @param <S> state type
 */
public interface StateVersion<K, S> {
    /** The batch this is the state after. */
    long batchTime();

    /** Live keys. */
    int size();

    /** Whether keys carry timeouts (the operator has a timeout). */
    boolean timed();

    /** Keys the batch that made this version changed (a write counts once per record). */
    int changes();

    /** Keys the batch that made this version timed out (0 without a timeout, and for a loaded state). */
    int timedOut();

    /** The heap this version holds, estimated cheaply (never a pass over the entries). */
    long estimatedBytes();

    /**
     * The heap the batch after this version may allocate on top of it while it grows the state's tables (0 where
     * the state is not on the heap): its next version is made from a copy, and a table that grows holds its old
     * and its new arrays at once.
     */
    default long growthBytes() {
        return 0;
    }

    /** The bytes this version keeps on local disk (0 on the heap). */
    default long diskBytes() {
        return 0;
    }

    /** The backend holding this version. */
    StateBackend backend();

    boolean contains(K key);

    /** The key's state; NoSuchElementException when it has none. */
    S get(K key);

    /** The key's last update time; NoSuchElementException when it has no state. */
    long lastUpdate(K key);

    /** Receives live entries. */
    @FunctionalInterface
    interface EntryVisitor<K, S> {
        void visit(K key, S state, long lastUpdate) throws Exception;
    }

    /** Visits every live entry once (in no particular order). */
    void forEach(EntryVisitor<K, S> visitor) throws Exception;

    /** Every live entry as {@code f(key, state)}, lazily (for snapshots and updateStateByKey's output). */
    <R> Iterator<R> iterator(BiFunction<K, S, R> f);

    /** The earliest batch b for which the removals after b are known, so a delta since b can be written. */
    long removalsKnownSince();

    /** Whether {@link #forEachChangeSince} can describe every change after batch {@code since}. */
    default boolean hasChangesSince(long since) {
        return since >= removalsKnownSince() && since <= batchTime();
    }

    /** Receives the changes after a batch: first removals, then live entries updated after it. */
    interface ChangeVisitor<K, S> {
        void removed(K key, long removedAt) throws Exception;

        void updated(K key, S state, long lastUpdate) throws Exception;
    }

    /**
     * Visits what changed after batch {@code since}: keys removed since then that have no state now, then every
     * live entry last updated after it. Applying them, in that order, to the state of {@code since} gives this
     * version. Check {@link #hasChangesSince} first.
     */
    void forEachChangeSince(long since, ChangeVisitor<K, S> visitor) throws Exception;

    /** A writer of the version after batch {@code time}, starting from this one (which it never changes). */
    StateWriter<K, S> writer(long time);
}
