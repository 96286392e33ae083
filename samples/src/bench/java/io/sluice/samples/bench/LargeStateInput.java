package io.sluice.samples.bench;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * W8's input, generated inside the tasks of 4 partitions per batch: fill batches of {@code keysPerBatch} new keys
 * each ("w0", "w1", ... in order, every key once, the last batch the rest), until {@code keys} keys are in state; then
 * {@code steadyBatches} batches of {@code keysPerBatch} records over all the keys, drawn with BenchRecords' formula.
 */
record LargeStateInput(int keys, int keysPerBatch, int steadyBatches) {
    private static final int PARTITIONS = 4;

    LargeStateInput {
        if (keys < PARTITIONS || keysPerBatch < PARTITIONS || keysPerBatch % PARTITIONS != 0 || steadyBatches < 1) {
            throw new IllegalArgumentException("W8 needs keys >= 4, keys per batch a positive multiple of 4 and a "
                    + "steady batch; got " + keys + " keys, " + keysPerBatch + " per batch, " + steadyBatches
                    + " steady batches");
        }
    }

    int fillBatches() {
        return (keys + keysPerBatch - 1) / keysPerBatch;
    }

    int batches() {
        return fillBatches() + steadyBatches;
    }

    /** Every record of every batch: each key once while filling, then the steady batches. */
    long records() {
        return keys + (long) steadyBatches * keysPerBatch;
    }

    List<JavaRDD<String>> batches(JavaSparkContext sc) {
        List<Integer> partitions = List.of(0, 1, 2, 3);
        List<JavaRDD<String>> rdds = new ArrayList<>();
        int keys = this.keys;
        int perBatch = keysPerBatch;
        for (int b = 0; b < fillBatches(); b++) {
            long first = (long) b * perBatch;
            long last = Math.min(keys, first + perBatch);
            rdds.add(sc.parallelize(partitions, PARTITIONS).mapPartitionsWithIndex((p, ignored) -> {
                long size = (last - first + PARTITIONS - 1) / PARTITIONS;
                long from = first + p * size;
                long to = Math.min(last, from + size);
                return java.util.stream.LongStream.range(from, Math.max(from, to)).mapToObj(k -> "w" + k).iterator();
            }, true).setName("W8 fill batch " + b));
        }
        for (int s = 0; s < steadyBatches; s++) {
            long batch = s;
            long perPartition = perBatch / PARTITIONS;
            rdds.add(sc.parallelize(partitions, PARTITIONS).mapPartitionsWithIndex((p, ignored) ->
                    java.util.stream.LongStream.range(0, perPartition)
                            .mapToObj(i -> BenchRecords.word(batch, p, i, keys)).iterator(), true)
                    .setName("W8 steady batch " + s));
        }
        return rdds;
    }
}
