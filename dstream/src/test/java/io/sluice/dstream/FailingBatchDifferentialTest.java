package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.testing.Failures;
import io.sluice.dstream.testing.SparkStreamingRun;
import io.sluice.rdd.Time;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkException;
import org.apache.spark.streaming.api.java.JavaDStream;
import org.junit.jupiter.api.Test;

/**
 * A failing batch against Spark Streaming: every output operation of the batch still runs, and awaitTermination
 * throws the exception where Spark Streaming puts it (the user's own for a driver-side foreachRDD, a
 * SparkException whose cause chain reaches the user's for a task), naming the operator and the batch.
 */
class FailingBatchDifferentialTest {
    private static final List<List<Integer>> INPUT = List.of(List.of(1, 2), List.of(0, 3));

    private record Run(Map<Time, List<Integer>> laterOutput, Throwable thrown) {
    }

    @Test
    void aThrowingForeachRDDThrowsTheUsersExceptionAndLaterOutputsStillRun() {
        Run spark;
        try (SparkStreamingRun reference = new SparkStreamingRun(2)) {
            JavaDStream<Integer> in = reference.input(INPUT);
            in.foreachRDD(rdd -> {
                if (rdd.collect().contains(0)) {
                    throw new IllegalStateException("sink unavailable");
                }
            });
            Collected<Integer> later = reference.collect(in.map(x -> x * 10));
            reference.runBatches(2);
            spark = new Run(later.byTime(), assertThrows(Throwable.class,
                    () -> reference.context().awaitTerminationOrTimeout(30_000)));
        }
        Run sluice;
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> in = t.input(INPUT);
            in.foreachRDD(rdd -> {
                if (rdd.collect().contains(0)) {
                    throw new IllegalStateException("sink unavailable");
                }
            });
            Collected<Integer> later = t.collect(in.map(x -> x * 10));
            t.runBatches(2);
            sluice = new Run(later.byTime(), assertThrows(Throwable.class,
                    () -> t.context().awaitTerminationOrTimeout(30_000L)));
        }
        assertEquals(spark.laterOutput(), sluice.laterOutput(), "the output after the failing one ran in both");
        assertEquals(List.of(0, 30), sluice.laterOutput().get(new Time(2000)));
        assertEquals(spark.thrown().getClass(), sluice.thrown().getClass());
        assertEquals(spark.thrown().getMessage(), sluice.thrown().getMessage());
        String naming = Failures.naming(sluice.thrown());
        assertTrue(naming.contains("foreachRDD at FailingBatchDifferentialTest.java")
                && naming.contains("batch 2000 ms"), naming);
    }

    @Test
    void aThrowingTaskThrowsASparkExceptionCausedByTheUsersException() {
        Run spark;
        try (SparkStreamingRun reference = new SparkStreamingRun(2)) {
            JavaDStream<Integer> in = reference.input(INPUT);
            in.map(x -> 6 / x).foreachRDD(rdd -> {
                rdd.collect();
            });
            Collected<Integer> later = reference.collect(in);
            reference.runBatches(2);
            spark = new Run(later.byTime(), assertThrows(Throwable.class,
                    () -> reference.context().awaitTerminationOrTimeout(30_000)));
        }
        Run sluice;
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> in = t.input(INPUT);
            in.map(x -> 6 / x).foreachRDD(rdd -> {
                rdd.collect();
            });
            Collected<Integer> later = t.collect(in);
            t.runBatches(2);
            sluice = new Run(later.byTime(), assertThrows(Throwable.class,
                    () -> t.context().awaitTerminationOrTimeout(30_000L)));
        }
        assertEquals(spark.laterOutput(), sluice.laterOutput(), "the output after the failing one ran in both");
        assertEquals(List.of(0, 3), sluice.laterOutput().get(new Time(2000)));
        assertEquals(SparkException.class, spark.thrown().getClass());
        assertEquals(SparkException.class, sluice.thrown().getClass());
        assertEquals(Failures.inCauseChain(spark.thrown(), ArithmeticException.class).getMessage(),
                Failures.inCauseChain(sluice.thrown(), ArithmeticException.class).getMessage());
        String m = sluice.thrown().getMessage();
        assertTrue(m.contains("foreachRDD at FailingBatchDifferentialTest.java") && m.contains("batch 2000 ms")
                && m.contains("map at FailingBatchDifferentialTest.java"), m);
    }
}
