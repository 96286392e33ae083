package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import io.sluice.state.StateSpec;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.streaming.api.java.JavaDStream;
import scala.Tuple2;

/**
 * W2b: W2's pipeline with 1,000,000 keys in state (pre-loaded through initialState on both sides, during the
 * warm-up batches) and 10,000 records per batch over those keys: the per-batch time should follow the batch, not
 * the state. W7a runs the same shape with other numbers of keys.
 */
final class MapWithStateLargeStateWorkload implements BatchWorkload {
    static final int STATE_KEYS = 1_000_000;

    private final String id;
    private final int stateKeys;

    /** W2b itself. */
    MapWithStateLargeStateWorkload() {
        this("W2b", STATE_KEYS);
    }

    /** W2b's shape under another id, with {@code stateKeys} keys in state and in the input. */
    MapWithStateLargeStateWorkload(String id, int stateKeys) {
        if (stateKeys < 1) {
            throw new IllegalArgumentException(id + ": need at least one key in state, got " + stateKeys);
        }
        this.id = id;
        this.stateKeys = stateKeys;
    }

    /** Keys pre-loaded into state; tests that only compare the two pipelines lower it (bench.stateKeys). */
    private int preloadedKeys() {
        return Integer.getInteger("bench.stateKeys", stateKeys);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "W2 with %,d keys in state, 10,000 records per batch", stateKeys);
    }

    @Override
    public Figure figure() {
        return Figure.MS_PER_BATCH;
    }

    @Override
    public double target() {
        return 0.25;
    }

    @Override
    public long recordsPerBatch() {
        return 10_000;
    }

    @Override
    public int keys() {
        return stateKeys;
    }

    @Override
    public boolean needsCheckpointDirectory() {
        return true;
    }

    @Override
    public void sluice(DStream<String> input) {
        JavaSparkContext sc = input.context().sparkContext();
        input.mapToPair(w -> new Tuple2<>(w, 1))
                .mapWithState(StateSpec.function(MapWithStateWorkload::count).numPartitions(4)
                        .initialState(StateInput.initialCounts(sc, preloadedKeys())))
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }

    @Override
    public void sparkStreaming(JavaDStream<String> input) {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(input.context().sparkContext());
        input.mapToPair(w -> new Tuple2<>(w, 1))
                .mapWithState(org.apache.spark.streaming.StateSpec.function(MapWithStateWorkload::countOnSpark)
                        .numPartitions(4).initialState(StateInput.initialCounts(sc, preloadedKeys())))
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }
}
