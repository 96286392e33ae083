package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import java.time.Duration;
import org.apache.spark.streaming.api.java.JavaDStream;
import scala.Tuple2;

/**
 * W4 and W4-60: mapToPair (w, 1) → reduceByKeyAndWindow(+, −, window N batches, slide 1 batch) → count, over
 * 400,000 records and 200,000 keys per batch. The count is the number of keys in the window (keys whose count
 * went back to 0 included, as neither side filters), the same on both sides.
 *
 * <p>W4-60 (a 60-batch window) checks that an incremental window's cost does not grow with its length: its
 * counted batches start only once the window is full (60 more warm-up batches than the settings say, so 76
 * batches, about 4 minutes per side at 3 s). Compare its Sluice per-batch time with W4's. (A shorter interval
 * would halve that, but on a loaded machine Spark Streaming then falls behind its batches by more than the
 * harness's timeout allows.)
 */
final class WindowedCounts implements BatchWorkload {
    private final String id;
    private final int windowBatches;

    private WindowedCounts(String id, int windowBatches) {
        this.id = id;
        this.windowBatches = windowBatches;
    }

    static WindowedCounts w4() {
        return new WindowedCounts("W4", 5);
    }

    static WindowedCounts w4Window60() {
        return new WindowedCounts("W4-60", 60);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String description() {
        return "mapToPair (w, 1) → reduceByKeyAndWindow(+, −, window " + windowBatches + " batches, slide 1) → count";
    }

    @Override
    public Figure figure() {
        return Figure.THROUGHPUT;
    }

    @Override
    public double target() {
        return 2.0;
    }

    @Override
    public long recordsPerBatch() {
        return 400_000;
    }

    @Override
    public int keys() {
        return 200_000;
    }

    @Override
    public boolean needsCheckpointDirectory() {
        return true; // Spark Streaming requires one for windows with an inverse function; Sluice gets one too
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        return StandardRun.run(this, side, settingsFor(settings));
    }

    /** W4 runs with the given settings; a longer window is first filled, in extra warm-up batches. */
    BenchSettings settingsFor(BenchSettings settings) {
        if (windowBatches <= 5) {
            return settings;
        }
        return new BenchSettings(settings.master(), settings.defaultParallelism(), settings.inputPartitions(),
                settings.batches() + windowBatches, settings.warmup() + windowBatches, settings.interval());
    }

    @Override
    public void sluice(DStream<String> input) {
        Duration slide = input.slideDuration();
        input.mapToPair(w -> new Tuple2<>(w, 1))
                .reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b, slide.multipliedBy(windowBatches), slide)
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }

    @Override
    public void sparkStreaming(JavaDStream<String> input) {
        org.apache.spark.streaming.Duration slide = input.dstream().slideDuration();
        input.mapToPair(w -> new Tuple2<>(w, 1))
                .reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b, slide.times(windowBatches), slide)
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }
}
