package io.sluice.dstream.internal.source;

import io.sluice.dstream.internal.InputOperator;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.source.rate.BatchCounts;
import io.sluice.dstream.internal.source.rate.RateLimitedSource;
import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;

/**
 * A generator of words at a rate in records per second, for demos and load tests: batch t holds rate × batch
 * interval records (the records of {@link WordRecords}, generated inside the tasks). The rate starts at the
 * configured one and, with backpressure on, follows the rate controller (never above the configured rate), so
 * the source behaves like a receiver held to a rate limit, but in the batch clock's time: it is deterministic
 * under a manual clock.
 */
public final class RateInputOperator extends InputOperator<String> implements RateLimitedSource {
    private final long maxRate;
    private final int keys;
    private final long seed;
    private final int partitions;
    private final BatchCounts counts = new BatchCounts();
    private volatile long rate;

    public RateInputOperator(StreamGraph graph, long recordsPerSecond, long startRate, int keys, long seed,
            int partitions) {
        super(graph, "rateStream", List.of());
        if (recordsPerSecond < 1 || keys < 1 || partitions < 1) {
            throw new IllegalArgumentException("rateStream needs recordsPerSecond >= 1, keys >= 1 and partitions >= 1;"
                    + " got " + recordsPerSecond + ", " + keys + ", " + partitions);
        }
        this.maxRate = recordsPerSecond;
        this.rate = startRate > 0 ? Math.min(startRate, recordsPerSecond) : recordsPerSecond;
        this.keys = keys;
        this.seed = seed;
        this.partitions = partitions;
    }

    @Override
    protected Optional<JavaRDD<String>> compute(Time time) {
        long records = rate * slide().toMillis() / 1000;
        counts.put(time, records);
        long batch = Math.floorDiv(time.milliseconds(), slide().toMillis());
        long perPartition = records / partitions;
        long remainder = records % partitions;
        int keyCount = keys;
        long s = seed;
        List<Integer> ids = new ArrayList<>();
        IntStream.range(0, partitions).forEach(ids::add);
        return Optional.of(graph().sparkContext().parallelize(ids, partitions).mapPartitionsWithIndex(
                (p, it) -> GeneratorInputOperator.words(batch, p, perPartition + (p < remainder ? 1 : 0), keyCount, s),
                true));
    }

    @Override
    public Report report(Time time) {
        long n = counts.get(time);
        return n < 0 ? Report.NONE : new Report(n, 0);
    }

    @Override
    public String sourceName() {
        return describe();
    }

    @Override
    public long maxRate() {
        return maxRate;
    }

    @Override
    public long currentRate() {
        return rate;
    }

    @Override
    public void updateRate(long recordsPerSecond) {
        rate = Math.max(1, Math.min(recordsPerSecond, maxRate));
    }

    @Override
    public long recordsAt(Time time) {
        return counts.get(time);
    }
}
