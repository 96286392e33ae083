package io.sluice.dstream.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Collected;
import io.sluice.testkit.Records;
import io.sluice.testkit.StreamTester;
import io.sluice.dstream.DStream;
import io.sluice.dstream.DStreamLike;
import io.sluice.dstream.StreamingContext;
import io.sluice.rdd.Time;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.spark.streaming.api.java.JavaDStream;
import org.apache.spark.streaming.api.java.JavaDStreamLike;
import org.apache.spark.streaming.api.java.JavaStreamingContext;

/**
 * Differential tests: one pipeline written twice, once on Sluice's API and once on Spark Streaming's (they
 * mirror each other, so the two lambdas read the same), run over the same input batches; each batch's output
 * must be equal. {@link Order#UNORDERED} compares each batch as a multiset, for outputs of shuffles.
 */
public final class Differential {
    public enum Order { ORDERED, UNORDERED }

    private Differential() {
    }

    public static <I, O> void compare(List<List<I>> input, Order order,
            Function<DStream<I>, ? extends DStreamLike<O, ?>> sluice, Function<JavaDStream<I>, JavaDStreamLike<O, ?, ?>> spark) {
        compare2(input, List.of(), order, (a, b) -> sluice.apply(a), (a, b) -> spark.apply(a));
    }

    public static <A, B, O> void compare2(List<List<A>> first, List<List<B>> second, Order order,
            BiFunction<DStream<A>, DStream<B>, ? extends DStreamLike<O, ?>> sluice,
            BiFunction<JavaDStream<A>, JavaDStream<B>, JavaDStreamLike<O, ?, ?>> spark) {
        compareIn(first, second, order, (context, a, b) -> sluice.apply(a, b), (context, a, b) -> spark.apply(a, b));
    }

    /** A pipeline on Sluice that may also use its context (union of many, more input streams). */
    @FunctionalInterface
    public interface SluicePipeline<A, B, O> {
        DStreamLike<O, ?> build(StreamingContext context, DStream<A> first, DStream<B> second);
    }

    /** The same pipeline on Spark Streaming. */
    @FunctionalInterface
    public interface SparkPipeline<A, B, O> {
        JavaDStreamLike<O, ?, ?> build(JavaStreamingContext context, JavaDStream<A> first, JavaDStream<B> second);
    }

    /** The general form: two scripted inputs, and the pipelines see their context. */
    public static <A, B, O> void compareIn(List<List<A>> first, List<List<B>> second, Order order,
            SluicePipeline<A, B, O> sluice, SparkPipeline<A, B, O> spark) {
        int batches = Math.max(first.size(), second.size()) + 1; // one more: a batch past the input is empty
        Map<Time, List<O>> expected;
        try (SparkStreamingRun reference = new SparkStreamingRun(2)) {
            Collected<O> out = reference.collect(spark.build(reference.context(), reference.input(first),
                    reference.input(second)));
            reference.runBatches(batches);
            expected = new TreeMap<>(out.byTime());
        }
        Map<Time, List<O>> actual;
        try (StreamTester t = new StreamTester()) {
            Collected<O> out = t.collect(sluice.build(t.context(), t.input(first), t.input(second)));
            t.runBatches(batches);
            actual = new TreeMap<>(out.byTime());
        }
        assertEquals(batches, expected.size(), "Spark Streaming batches");
        assertEquals(comparable(expected, order), comparable(actual, order),
                "Sluice's output per batch differs from Spark Streaming's");
    }

    private static <O> Map<Time, Object> comparable(Map<Time, List<O>> batches, Order order) {
        Map<Time, Object> result = new TreeMap<>();
        batches.forEach((time, records) -> {
            List<Object> normalized = Records.normalizeAll(records);
            result.put(time, order == Order.ORDERED ? normalized : Collected.multiset(normalized));
        });
        return result;
    }
}
