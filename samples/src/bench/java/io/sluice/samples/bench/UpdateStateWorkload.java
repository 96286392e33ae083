package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import java.util.List;
import org.apache.spark.api.java.Optional;
import org.apache.spark.streaming.api.java.JavaDStream;
import scala.Tuple2;

/** W3: mapToPair (w, 1) → updateStateByKey running count → count; 400,000 records over 200,000 keys. */
final class UpdateStateWorkload implements BatchWorkload {
    @Override
    public String id() {
        return "W3";
    }

    @Override
    public String description() {
        return "mapToPair (w, 1) → updateStateByKey running count → count";
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

    static Optional<Long> sum(List<Integer> ones, Optional<Long> state) {
        long count = state.orElse(0L);
        for (int one : ones) {
            count += one;
        }
        return Optional.of(count);
    }

    @Override
    public void sluice(DStream<String> input) {
        input.mapToPair(w -> new Tuple2<>(w, 1))
                .updateStateByKey(UpdateStateWorkload::sum, 4)
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }

    @Override
    public void sparkStreaming(JavaDStream<String> input) {
        input.mapToPair(w -> new Tuple2<>(w, 1))
                .updateStateByKey(UpdateStateWorkload::sum, 4)
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }
}
