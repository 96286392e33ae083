package io.sluice.dstream.source.internal;

import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.SourceContext;
import io.sluice.dstream.source.internal.rate.BatchCounts;
import io.sluice.dstream.source.internal.rate.RateController;
import io.sluice.dstream.source.internal.rate.RateLimitedSource;
import io.sluice.rdd.Time;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A generator of words at a rate in records per second, for demos and load tests: batch t holds rate × batch
 * interval records (the records of {@link WordRecords}, generated inside the tasks). The rate starts at the
 * configured one and, with backpressure on, follows the rate controller (never above the configured rate), so
 * the source behaves like a receiver held to a rate limit, but in the batch clock's time: it is deterministic
 * under a manual clock.
 */
public final class RateSource implements InputSource<String>, RateLimitedSource {
    private final long maxRate;
    private final int keys;
    private final long seed;
    private final int partitions;
    private final BatchCounts counts = new BatchCounts();
    private volatile long rate;
    private volatile JavaSparkContext sc;
    private volatile long intervalMillis;
    private volatile String name = "rateStream";

    public RateSource(long recordsPerSecond, int keys, long seed, int partitions) {
        if (recordsPerSecond < 1 || keys < 1 || partitions < 1) {
            throw new IllegalArgumentException("rateStream needs recordsPerSecond >= 1, keys >= 1 and partitions >= 1;"
                    + " got " + recordsPerSecond + ", " + keys + ", " + partitions);
        }
        this.maxRate = recordsPerSecond;
        this.rate = recordsPerSecond;
        this.keys = keys;
        this.seed = seed;
        this.partitions = partitions;
    }

    /** With backpressure on (a source setting, read now), the rate starts at the initial rate and follows control. */
    @Override
    public void start(SourceContext context) {
        sc = context.sparkContext();
        intervalMillis = context.grid().step().toMillis();
        name = context.name();
        SourceSettings settings = SourceSettings.from(context);
        long startRate = settings.startRate(maxRate);
        rate = startRate > 0 ? Math.min(startRate, maxRate) : maxRate;
        if (settings.backpressure()) {
            context.addStreamingListener(new RateController(this, intervalMillis, settings));
        }
    }

    @Override
    public Optional<JavaRDD<String>> compute(Time time) {
        long records = rate * intervalMillis / 1000;
        counts.put(time, records);
        return Optional.of(GeneratorSource.generate(sc, time, intervalMillis, records, partitions, keys, seed));
    }

    @Override
    public BatchReport report(Time time) {
        long n = counts.get(time);
        return n < 0 ? BatchReport.NONE : new BatchReport(n, 0);
    }

    @Override
    public String sourceName() {
        return name;
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
