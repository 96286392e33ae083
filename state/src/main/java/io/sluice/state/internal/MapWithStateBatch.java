package io.sluice.state.internal;

import java.util.List;

/**
 * One partition of a mapWithState state RDD: the state after the batch, and the records the function emitted
 * during it (in the order it emitted them). The mapped stream and the snapshots both read it.
 */
public record MapWithStateBatch<K, S, M>(StateVersion<K, S> state, List<M> mapped) {
}
