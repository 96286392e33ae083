package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import java.util.Arrays;
import org.apache.spark.streaming.api.java.JavaDStream;
import scala.Tuple2;

/** W1: flatMap → mapToPair (w, 1) → reduceByKey(+) → count over 400,000 records and 200,000 keys per batch. */
final class WordCountWorkload implements BatchWorkload {
    @Override
    public String id() {
        return "W1";
    }

    @Override
    public String description() {
        return "flatMap → mapToPair (w, 1) → reduceByKey(+) → count";
    }

    @Override
    public Figure figure() {
        return Figure.THROUGHPUT;
    }

    @Override
    public double target() {
        return 3.0;
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
    public void sluice(DStream<String> input) {
        input.flatMap(line -> Arrays.asList(line.split(" ")).iterator())
                .mapToPair(w -> new Tuple2<>(w, 1))
                .reduceByKey(Integer::sum)
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }

    @Override
    public void sparkStreaming(JavaDStream<String> input) {
        input.flatMap(line -> Arrays.asList(line.split(" ")).iterator())
                .mapToPair(w -> new Tuple2<>(w, 1))
                .reduceByKey(Integer::sum)
                .count()
                .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
    }
}
