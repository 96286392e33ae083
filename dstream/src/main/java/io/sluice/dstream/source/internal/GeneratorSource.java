package io.sluice.dstream.source.internal;

import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.SourceContext;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Transforms;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A replayable source of words for samples and benchmarks: the batch at time t always holds the same
 * records (see {@link WordRecords}), generated inside the tasks, so the driver does no per-record work and a
 * recomputed or replayed batch is identical to the original.
 */
public final class GeneratorSource implements InputSource<String> {
    private final long recordsPerBatch;
    private final int keys;
    private final long seed;
    private final int partitions;
    private volatile JavaSparkContext sc;
    private volatile BatchGrid grid; // the batch interval's, from the epoch: a batch's number is the same in every run

    public GeneratorSource(long recordsPerBatch, int keys, long seed, int partitions) {
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
    public void start(SourceContext context) {
        sc = context.sparkContext();
        grid = BatchGrid.ofEpoch(context.grid().step());
    }

    @Override
    public Optional<JavaRDD<String>> compute(Time time) {
        return Optional.of(generate(sc, grid.stepsFromZero(time), recordsPerBatch, partitions, keys, seed));
    }

    /**
     * The words of batch number {@code batch}: {@code records} over {@code partitions} partitions. The batch's
     * number (its step on the epoch's grid, the same in every run) seeds the words, so a batch replays identically.
     */
    static JavaRDD<String> generate(JavaSparkContext sc, long batch, long records, int partitions, int keys,
            long seed) {
        long perPartition = records / partitions;
        long remainder = records % partitions;
        List<Integer> ids = new ArrayList<>();
        IntStream.range(0, partitions).forEach(ids::add);
        return Transforms.mapPartitionsWithIndex(sc.parallelize(ids, partitions),
                (p, it) -> words(batch, p, perPartition + (p < remainder ? 1 : 0), keys, seed), true);
    }

    /**
     * The records of one partition. Static on purpose: an anonymous class created in the task's lambda would
     * capture its enclosing instance (javac 17 keeps it), and sources do not serialize.
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
    public BatchReport report(Time time) {
        return new BatchReport(recordsPerBatch, 0);
    }
}
