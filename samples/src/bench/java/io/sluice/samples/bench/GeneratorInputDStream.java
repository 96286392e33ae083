package io.sluice.samples.bench;

import io.sluice.dstream.source.internal.WordRecords;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.rdd.RDD;
import org.apache.spark.streaming.StreamingContext;
import org.apache.spark.streaming.Time;
import org.apache.spark.streaming.dstream.InputDStream;
import scala.Option;
import scala.reflect.ClassTag$;

/**
 * The Spark Streaming side's copy of Sluice's generator source, for the restart workloads: the batch at time t
 * holds the same records as Sluice's {@code generatorStream} (WordRecords), generated inside the tasks, and
 * can be recomputed after a restart (Spark Streaming's queueStream cannot be checkpointed).
 */
final class GeneratorInputDStream extends InputDStream<String> {
    private static final long serialVersionUID = 1L;
    private final long recordsPerBatch;
    private final int keys;
    private final long seed;
    private final int partitions;
    private final long intervalMs;

    GeneratorInputDStream(StreamingContext ssc, long recordsPerBatch, int keys, long seed, int partitions,
            long intervalMs) {
        super(ssc, ClassTag$.MODULE$.apply(String.class));
        this.recordsPerBatch = recordsPerBatch;
        this.keys = keys;
        this.seed = seed;
        this.partitions = partitions;
        this.intervalMs = intervalMs;
    }

    @Override
    public void start() {
    }

    @Override
    public void stop() {
    }

    @Override
    public Option<RDD<String>> compute(Time validTime) {
        long batch = Math.floorDiv(validTime.milliseconds(), intervalMs);
        long perPartition = recordsPerBatch / partitions;
        int keyCount = keys;
        long s = seed;
        List<Integer> ids = java.util.stream.IntStream.range(0, partitions).boxed().toList();
        RDD<String> rdd = new org.apache.spark.api.java.JavaSparkContext(ssc().sparkContext())
                .parallelize(ids, partitions)
                .mapPartitionsWithIndex((p, it) -> words(batch, p, perPartition, keyCount, s), true).rdd();
        return Option.apply(rdd);
    }

    static Iterator<String> words(long batch, int partition, long count, int keys, long seed) {
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
                return WordRecords.word(batch, partition, i++, keys, seed);
            }
        };
    }
}
