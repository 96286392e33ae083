package io.sluice.state.internal;

import io.sluice.rdd.internal.SampledSize;
import java.util.List;
import org.apache.spark.util.KnownSizeEstimation;
import org.apache.spark.util.SizeEstimator;

/**
 * One partition of a mapWithState state RDD: the state after the batch, and the records the function emitted
 * during it (in the order it emitted them). The mapped stream and the snapshots both read it. Its cached size is
 * the state's, estimated whole, and the emitted records' from a sample of them ({@link SampledSize}).
 */
public record MapWithStateBatch<K, S, M>(StateVersion<K, S> state, List<M> mapped) implements KnownSizeEstimation {
    @Override
    public long estimatedSize() {
        return SizeEstimator.estimate(state) + SampledSize.of(mapped);
    }
}
