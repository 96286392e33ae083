package io.sluice.state.internal;

/**
 * Builds a version of a {@link StateBackend} from whole entries: an initial state RDD's pairs, a checkpoint being
 * restored, state moved between partitions. A later entry for the same key replaces an earlier one.
 */
public interface StateLoader<K, S> {
    void put(K key, S state, long lastUpdate);

    void remove(K key);

    /**
     * Adds the live entries of {@code version} whose key's {@code hashCode()} passes {@code keep} (the key groups
     * a partition gathers when state moves): one entry at a time, unless a backend copies its own faster.
     */
    default void putEntriesOf(StateVersion<K, S> version, java.util.function.IntPredicate keep) {
        try {
            version.forEach((key, state, lastUpdate) -> {
                if (keep.test(key.hashCode())) {
                    put(key, state, lastUpdate);
                }
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The version after batch {@code batchTime}; deltas can be taken from it since {@code removalsKnownSince}. */
    StateVersion<K, S> build(long batchTime, long removalsKnownSince);

    /**
     * The state after batch {@code batchTime} as it was, gathered from elsewhere (moved between partitions): no
     * key changed, so {@link StateVersion#changes()} is 0.
     */
    StateVersion<K, S> buildMoved(long batchTime);
}
