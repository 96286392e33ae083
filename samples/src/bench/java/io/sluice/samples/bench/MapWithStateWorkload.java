package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import io.sluice.dstream.MapWithStateDStream;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import org.apache.spark.api.java.Optional;
import org.apache.spark.streaming.api.java.JavaDStream;
import scala.Tuple2;

/**
 * W2: mapToPair (w, 1) → mapWithState running count, emitting the new count per record → count; 400,000
 * records per batch over 200,000 keys, 4 state partitions.
 */
final class MapWithStateWorkload implements BatchWorkload {
    @Override
    public String id() {
        return "W2";
    }

    @Override
    public String description() {
        return "mapToPair (w, 1) → mapWithState running count → count";
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
        return true;
    }

    static Long count(String word, Optional<Integer> one, State<Long> state) {
        long count = (state.exists() ? state.get() : 0L) + one.get();
        state.update(count);
        return count;
    }

    static Long countOnSpark(String word, Optional<Integer> one, org.apache.spark.streaming.State<Long> state) {
        long count = (state.exists() ? state.get() : 0L) + one.get();
        state.update(count);
        return count;
    }

    /** W2's pipeline on Sluice up to its output: the records each batch's running counts emitted. */
    static MapWithStateDStream<String, Integer, Long, Long> runningCounts(DStream<String> input) {
        return input.mapToPair(w -> new Tuple2<>(w, 1))
                .mapWithState(StateSpec.function(MapWithStateWorkload::count).numPartitions(4));
    }

    @Override
    public void sluice(DStream<String> input) {
        runningCounts(input)
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }

    @Override
    public void sparkStreaming(JavaDStream<String> input) {
        input.mapToPair(w -> new Tuple2<>(w, 1))
                .mapWithState(org.apache.spark.streaming.StateSpec.function(MapWithStateWorkload::countOnSpark)
                        .numPartitions(4))
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }
}
