package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import org.apache.spark.streaming.api.java.JavaDStream;

/** W0: per-batch overhead. Input with no records → count → collect; the figure is the median ms per batch. */
final class EmptyBatches implements BatchWorkload {
    @Override
    public String id() {
        return "W0";
    }

    @Override
    public String description() {
        return "input → count, no records (per-batch overhead)";
    }

    @Override
    public Figure figure() {
        return Figure.MS_PER_BATCH;
    }

    @Override
    public double target() {
        return 0.15;
    }

    @Override
    public long recordsPerBatch() {
        return 0;
    }

    @Override
    public int keys() {
        return 1;
    }

    @Override
    public void sluice(DStream<String> input) {
        input.count().foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }

    @Override
    public void sparkStreaming(JavaDStream<String> input) {
        input.count().foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }
}
