package io.sluice.dstream.source.internal;

import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.SourceContext;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.Time;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;

/**
 * A generator of words at a rate in records per second, for demos and load tests: batch t holds rate × batch
 * interval records (the records of {@link WordRecords}, generated inside the tasks). The rate starts at the
 * configured one and, with backpressure on, follows the context's rate limit (never above the configured rate), so
 * the source behaves like a receiver held to a rate limit, but in the batch clock's time: it is deterministic
 * under a manual clock.
 */
public final class RateSource implements InputSource<String> {
    private final long maxRate;
    private final int keys;
    private final long seed;
    private final int partitions;
    /** The records of each batch computed and not yet forgotten, for its report. */
    private final BatchTimeMap<Long> counts = new BatchTimeMap<>();
    private volatile SourceContext context;

    public RateSource(long recordsPerSecond, int keys, long seed, int partitions) {
        if (recordsPerSecond < 1 || keys < 1 || partitions < 1) {
            throw new IllegalArgumentException("rateStream needs recordsPerSecond >= 1, keys >= 1 and partitions >= 1;"
                    + " got " + recordsPerSecond + ", " + keys + ", " + partitions);
        }
        this.maxRate = recordsPerSecond;
        this.keys = keys;
        this.seed = seed;
        this.partitions = partitions;
    }

    @Override
    public void start(SourceContext sourceContext) {
        context = sourceContext;
    }

    /** The configured rate, or the rate limit backpressure sets (its initial rate first) when that is lower. */
    @Override
    public Optional<JavaRDD<String>> compute(Time time) {
        long rate = Math.max(1, Math.min(maxRate, context.rateLimit().orElse(maxRate)));
        BatchGrid grid = BatchGrid.ofEpoch(context.grid().step());
        long records = rate * grid.step().toMillis() / 1000;
        counts.put(time, records);
        return Optional.of(GeneratorSource.generate(context.sparkContext(), grid.stepsFromZero(time), records,
                partitions, keys, seed));
    }

    @Override
    public BatchReport report(Time time) {
        return counts.get(time).map(n -> new BatchReport(n, 0)).orElse(BatchReport.NONE);
    }

    @Override
    public void forgetOlderThan(Time oldestKept) {
        counts.forgetBefore(oldestKept);
    }
}
