package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.testing.SparkStreamingRun;
import io.sluice.testkit.StreamTester;
import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.streaming.api.java.JavaDStream;
import org.junit.jupiter.api.Test;

/**
 * slice(from, to) against Spark Streaming 4.2.0, on aligned and unaligned time ranges, and compute(time), which
 * returns the batch's RDD, or null off the batch grid, as Spark's Java API does.
 */
class DifferentialSliceTest {
    private static final List<List<Integer>> INPUT = List.of(List.of(1), List.of(2, 3), List.of(), List.of(4));
    private static final long[][] RANGES = {{1000, 4000}, {2000, 3000}, {1500, 3500}, {2500, 2600}, {0, 2000},
            {3000, 3000}, {4000, 9000}};

    @Test
    void sliceReturnsTheSameBatchesAsSparkStreaming() {
        List<List<List<Integer>>> expected = new ArrayList<>();
        try (SparkStreamingRun reference = new SparkStreamingRun(2)) {
            JavaDStream<Integer> doubled = reference.input(INPUT).map(x -> x * 2);
            reference.collect(doubled);
            reference.context().remember(org.apache.spark.streaming.Durations.seconds(10));
            reference.runBatches(INPUT.size());
            for (long[] range : RANGES) {
                expected.add(doubled.slice(new org.apache.spark.streaming.Time(range[0]),
                        new org.apache.spark.streaming.Time(range[1])).stream().map(JavaRDD::collect).toList());
            }
        }
        List<List<List<Integer>>> actual = new ArrayList<>();
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> doubled = t.input(INPUT).map(x -> x * 2);
            t.collect(doubled);
            t.context().remember(Duration.ofSeconds(10));
            t.runBatches(INPUT.size());
            for (long[] range : RANGES) {
                actual.add(doubled.slice(new Time(range[0]), new Time(range[1])).stream().map(JavaRDD::collect).toList());
            }
        }
        assertEquals(expected, actual);
    }

    @Test
    void computeReturnsTheBatchOrNullAsSparkStreaming() {
        long[] times = {1000, 2000, 1500, 4000};
        List<List<Integer>> expected = new ArrayList<>();
        try (SparkStreamingRun reference = new SparkStreamingRun(2)) {
            JavaDStream<Integer> doubled = reference.input(INPUT).map(x -> x * 2);
            reference.collect(doubled);
            reference.context().remember(org.apache.spark.streaming.Durations.seconds(10));
            reference.runBatches(INPUT.size());
            for (long time : times) {
                JavaRDD<Integer> rdd = doubled.compute(new org.apache.spark.streaming.Time(time));
                expected.add(rdd == null ? null : rdd.collect());
            }
        }
        List<List<Integer>> actual = new ArrayList<>();
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> doubled = t.input(INPUT).map(x -> x * 2);
            t.collect(doubled);
            t.context().remember(Duration.ofSeconds(10));
            t.runBatches(INPUT.size());
            for (long time : times) {
                JavaRDD<Integer> rdd = doubled.compute(new Time(time));
                actual.add(rdd == null ? null : rdd.collect());
            }
        }
        assertEquals(java.util.Arrays.asList(List.of(2), List.of(4, 6), null, List.of(8)), expected);
        assertEquals(expected, actual);
    }
}
