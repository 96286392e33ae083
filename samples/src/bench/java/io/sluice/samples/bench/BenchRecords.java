package io.sluice.samples.bench;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The benchmark input of docs/benchmark.md, identical on both sides: one pre-built RDD per batch whose
 * records are generated inside the tasks, so the driver does no per-record work. Record i of partition p of
 * batch b is {@code "w" + floorMod(x, keys)} with x from {@link #mix}. Written out here rather than borrowed
 * from the engine so that the benchmark's input never changes with Sluice's generator.
 */
public final class BenchRecords {
    private BenchRecords() {
    }

    /** x = (b · 1,000,003 + p · 7,919 + i) · 0x9E3779B97F4A7C15, then x ^= x >>> 29; Java long arithmetic. */
    public static long mix(long batch, int partition, long index) {
        long x = (batch * 1_000_003L + partition * 7_919L + index) * 0x9E3779B97F4A7C15L;
        x ^= (x >>> 29);
        return x;
    }

    public static String word(long batch, int partition, long index, int keys) {
        return "w" + Math.floorMod(mix(batch, partition, index), keys);
    }

    /** Batches 0 .. batches-1, each with {@code recordsPerBatch / partitions} records in each partition. */
    public static List<JavaRDD<String>> batches(JavaSparkContext sc, int batches, int partitions,
            long recordsPerBatch, int keys) {
        List<Integer> ids = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            ids.add(p);
        }
        long perPartition = recordsPerBatch / partitions;
        List<JavaRDD<String>> rdds = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            long batch = b;
            rdds.add(sc.parallelize(ids, partitions)
                    .mapPartitionsWithIndex((p, ignored) -> records(batch, p, perPartition, keys), true)
                    .setName("benchmark input, batch " + b));
        }
        return rdds;
    }

    private static Iterator<String> records(long batch, int partition, long count, int keys) {
        return new Iterator<>() {
            private long i;

            @Override
            public boolean hasNext() {
                return i < count;
            }

            @Override
            public String next() {
                if (i >= count) {
                    throw new NoSuchElementException();
                }
                return word(batch, partition, i++, keys);
            }
        };
    }
}
