package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import io.sluice.state.StateSpec;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.streaming.api.java.JavaDStream;
import scala.Tuple2;

/**
 * W2b: W2's pipeline with 1,000,000 keys in state (pre-loaded through initialState on both sides, during the
 * warm-up batches) and 10,000 records per batch: the per-batch time should follow the batch, not the state.
 */
final class MapWithStateLargeStateWorkload implements BatchWorkload {
    static final int STATE_KEYS = 1_000_000;

    /** Keys pre-loaded into state; tests that only compare the two pipelines lower it (bench.stateKeys). */
    static int stateKeys() {
        return Integer.getInteger("bench.stateKeys", STATE_KEYS);
    }

    @Override
    public String id() {
        return "W2b";
    }

    @Override
    public String description() {
        return "W2 with 1,000,000 keys in state, 10,000 records per batch";
    }

    @Override
    public Figure figure() {
        return Figure.MS_PER_BATCH;
    }

    @Override
    public double target() {
        return 0.5;
    }

    @Override
    public long recordsPerBatch() {
        return 10_000;
    }

    @Override
    public int keys() {
        return STATE_KEYS;
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
                        .initialState(StateInput.initialCounts(sc, stateKeys())))
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }

    @Override
    public void sparkStreaming(JavaDStream<String> input) {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(input.context().sparkContext());
        input.mapToPair(w -> new Tuple2<>(w, 1))
                .mapWithState(org.apache.spark.streaming.StateSpec.function(MapWithStateWorkload::countOnSpark)
                        .numPartitions(4).initialState(StateInput.initialCounts(sc, stateKeys())))
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }
}
