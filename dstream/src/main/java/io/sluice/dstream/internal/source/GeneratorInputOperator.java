package io.sluice.dstream.internal.source;

import io.sluice.rdd.internal.Transforms;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.InputOperator;
import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;

/**
 * A replayable source of words for samples and benchmarks: the batch at time t always holds the same
 * records (see {@link WordRecords}), generated inside the tasks, so the driver does no per-record work and a
 * recomputed or replayed batch is identical to the original.
 */
public final class GeneratorInputOperator extends InputOperator<String> {
    private final long recordsPerBatch;
    private final int keys;
    private final long seed;
    private final int partitions;

    public GeneratorInputOperator(StreamGraph graph, long recordsPerBatch, int keys, long seed, int partitions) {
        super(graph, "generatorStream", List.of());
        if (recordsPerBatch < 0 || keys < 1 || partitions < 1) {
            throw new IllegalArgumentException("generatorStream needs recordsPerBatch >= 0, keys >= 1 and "
                    + "partitions >= 1; got " + recordsPerBatch + ", " + keys + ", " + partitions);
        }
        this.recordsPerBatch = recordsPerBatch;
        this.keys = keys;
        this.seed = seed;
        this.partitions = partitions;
    }

    @Override
    protected Optional<JavaRDD<String>> compute(Time time) {
        long batch = Math.floorDiv(time.milliseconds(), slide().toMillis());
        long perPartition = recordsPerBatch / partitions;
        long remainder = recordsPerBatch % partitions;
        int keyCount = keys;
        long s = seed;
        List<Integer> ids = new ArrayList<>();
        IntStream.range(0, partitions).forEach(ids::add);
        JavaRDD<String> rdd = Transforms.mapPartitionsWithIndex(graph().sparkContext().parallelize(ids, partitions),
                (p, it) -> words(batch, p, perPartition + (p < remainder ? 1 : 0), keyCount, s), true);
        return Optional.of(rdd);
    }

    /**
     * The records of one partition. Static on purpose: an anonymous class created in the task's lambda would
     * capture this operator (javac 17 keeps the outer instance), and the operator does not serialize.
     */
    static Iterator<String> words(long batch, int partition, long count, int keys, long seed) {
        return new Iterator<String>() {
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

    /** The batch at time t is a function of t: it replays without any saved position. */
    @Override
    public boolean replayable() {
        return true;
    }

    @Override
    public Report report(Time time) {
        return new Report(recordsPerBatch, 0);
    }
}
