package io.sluice.bench.flink;

import org.apache.flink.api.java.tuple.Tuple2;

/**
 * W2's input as docs/benchmark.md defines it: record i of partition p of batch b is {@code "w" + floorMod(x, keys)}
 * with x from {@link #mix}, {@code recordsPerBatch / 4} records per partition. Written out again here because this
 * module cannot see samples' BenchRecords (Spark is not on Flink's class path); samples' FlinkComparisonTest
 * checks that both give the same counts.
 *
 * @param batches how many batches' worth of records the input holds
 */
record W2Records(int batches, long recordsPerBatch, int keys) implements java.io.Serializable {
    static final int PARTITIONS = 4;

    W2Records {
        if (batches < 1 || recordsPerBatch < PARTITIONS || recordsPerBatch % PARTITIONS != 0 || keys < 1) {
            throw new IllegalArgumentException("W2's input needs batches >= 1, records per batch a positive multiple of "
                    + PARTITIONS + " and keys >= 1; got " + batches + ", " + recordsPerBatch + ", " + keys);
        }
    }

    /** x = (b · 1,000,003 + p · 7,919 + i) · 0x9E3779B97F4A7C15, then x ^= x >>> 29; Java long arithmetic. */
    static long mix(long batch, int partition, long index) {
        long x = (batch * 1_000_003L + partition * 7_919L + index) * 0x9E3779B97F4A7C15L;
        x ^= (x >>> 29);
        return x;
    }

    long total() {
        return batches * recordsPerBatch;
    }

    /** The record at position n (batch, then partition, then index) with its batch: (batch, word). */
    Tuple2<Integer, String> at(long n) {
        long batch = n / recordsPerBatch;
        long inBatch = n % recordsPerBatch;
        long perPartition = recordsPerBatch / PARTITIONS;
        int partition = (int) (inBatch / perPartition);
        return Tuple2.of((int) batch, "w" + Math.floorMod(mix(batch, partition, inBatch % perPartition), keys));
    }
}
