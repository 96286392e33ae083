package io.sluice.rdd.internal;

import java.io.Serializable;
import org.apache.spark.util.KnownSizeEstimation;

/**
 * One part of a local {@link Exchange}, as its block caches it: the part's records split into one array per
 * output partition. Reports its size from a sample of its records ({@link SampledSize}), so that caching it does
 * not walk every record.
 */
final class Buckets implements KnownSizeEstimation, Serializable {
    private static final long serialVersionUID = 1L;

    private final Object[][] buckets;
    private final long estimatedSize;

    Buckets(Object[][] buckets) {
        this.buckets = buckets;
        this.estimatedSize = SampledSize.of(buckets);
    }

    /** The records for output partition {@code p}, in input order. */
    Object[] bucket(int p) {
        return buckets[p];
    }

    @Override
    public long estimatedSize() {
        return estimatedSize;
    }
}
