package io.sluice.dstream.source.internal;

/**
 * The deterministic records of the generator source and the benchmark: record {@code i} of partition
 * {@code p} of batch {@code b} is {@code "w" + floorMod(x, keys)} with x a mix of (b, p, i, seed). The same
 * arguments give the same word on every machine and in every run.
 */
public final class WordRecords {
    private WordRecords() {
    }

    public static long mix(long batch, int partition, long index, long seed) {
        long x = (batch * 1_000_003L + partition * 7_919L + index + seed * 0x5851F42D4C957F2DL) * 0x9E3779B97F4A7C15L;
        return x ^ (x >>> 29);
    }

    public static String word(long batch, int partition, long index, int keys, long seed) {
        return "w" + Math.floorMod(mix(batch, partition, index, seed), keys);
    }
}
