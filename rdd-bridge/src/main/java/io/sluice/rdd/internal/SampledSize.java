package io.sluice.rdd.internal;

import java.util.List;
import java.util.function.IntFunction;
import org.apache.spark.util.SizeEstimator;

/**
 * The in-memory size of many records of one shape, estimated from a sample of them, for a cached block to report
 * (through Spark's {@code KnownSizeEstimation}). Spark's {@code SizeEstimator} walks every object of a block each
 * time the block is cached (every record of an array under 400 elements), which cost more than computing the
 * blocks themselves in a replay (decisions/0019-local-cache.md); this walks {@value #SAMPLES} records spread over
 * the whole, and scales.
 */
public final class SampledSize {
    static final int SAMPLES = 16;
    private static final long ARRAY_HEADER = SizeEstimator.estimate(new Object[0]);
    private static final long REFERENCE = (SizeEstimator.estimate(new Object[1024]) - ARRAY_HEADER) / 1024;
    private static final long LIST = SizeEstimator.estimate(new java.util.ArrayList<>(0));

    private SampledSize() {
    }

    /** A list of records: the list and its backing array, and its records estimated from a sample. */
    public static long of(List<?> records) {
        return LIST + array(records.size()) + sampled(records.size(), records::get);
    }

    /** The arrays of {@code buckets} (an array of arrays of records), and their records from a sample. */
    public static long of(Object[][] buckets) {
        long size = array(buckets.length);
        int[] ends = new int[buckets.length];
        int records = 0;
        for (int b = 0; b < buckets.length; b++) {
            size += array(buckets[b].length);
            records += buckets[b].length;
            ends[b] = records;
        }
        return size + sampled(records, i -> {
            int b = 0;
            while (ends[b] <= i) {
                b++;
            }
            return buckets[b][i - (b == 0 ? 0 : ends[b - 1])];
        });
    }

    private static long array(int length) {
        long bytes = ARRAY_HEADER + REFERENCE * length;
        return (bytes + 7) / 8 * 8;
    }

    /** Records 0 to n - 1, estimated from {@value #SAMPLES} of them, evenly spread. */
    private static long sampled(int n, IntFunction<Object> record) {
        if (n == 0) {
            return 0;
        }
        int step = Math.max(1, n / SAMPLES);
        long sampled = 0;
        int count = 0;
        for (int i = 0; i < n; i += step) {
            sampled += SizeEstimator.estimate(record.apply(i));
            count++;
        }
        return sampled * n / count;
    }
}
