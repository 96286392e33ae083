package io.sluice.dstream;

import static io.sluice.dstream.testing.Differential.Order.UNORDERED;

import io.sluice.dstream.testing.Differential;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.streaming.api.java.JavaDStream;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * {@code StreamingContext.transform(List, Function2)} and {@code transformToPair}, written as Spark's
 * JavaAPISuite writes its context transform (a list of streams, a pair stream passed through toJavaDStream, the
 * RDDs cast back), batch for batch against Spark Streaming's {@code JavaStreamingContext.transform}.
 */
class ContextTransformTest {
    private static final List<List<Integer>> NUMBERS = List.of(List.of(1, 2, 3), List.of(4), List.of());
    private static final List<List<String>> WORDS = List.of(List.of("a"), List.of("b", "c"), List.of("d"));

    @Test
    @SuppressWarnings("unchecked")
    void transformOfSeveralStreamsMatchesSparkStreaming() {
        Differential.compareIn(NUMBERS, WORDS, UNORDERED,
                (ctx, numbers, words) -> {
                    List<DStream<?>> streams = Arrays.asList(numbers, words);
                    return ctx.transform(streams, (rdds, time) -> {
                        JavaRDD<Integer> n = (JavaRDD<Integer>) rdds.get(0);
                        JavaRDD<String> w = (JavaRDD<String>) rdds.get(1);
                        long ms = time.milliseconds();
                        return n.map(x -> "n" + x + "@" + ms).union(w.map(x -> x + "@" + ms));
                    });
                },
                (ctx, numbers, words) -> {
                    List<JavaDStream<?>> streams = Arrays.asList(numbers, words);
                    return ctx.transform(streams, (rdds, time) -> {
                        JavaRDD<Integer> n = (JavaRDD<Integer>) rdds.get(0);
                        JavaRDD<String> w = (JavaRDD<String>) rdds.get(1);
                        long ms = time.milliseconds();
                        return n.map(x -> "n" + x + "@" + ms).union(w.map(x -> x + "@" + ms));
                    });
                });
    }

    @Test
    @SuppressWarnings("unchecked")
    void transformToPairOverAPairStreamMatchesSparkStreaming() {
        Differential.compareIn(NUMBERS, WORDS, UNORDERED,
                (ctx, numbers, words) -> {
                    PairDStream<Integer, String> byLength = words.mapToPair(w -> new Tuple2<>(w.length(), w));
                    return ctx.transformToPair(Arrays.asList(numbers, byLength.toJavaDStream()), (rdds, time) -> {
                        JavaRDD<Integer> n = (JavaRDD<Integer>) rdds.get(0);
                        JavaPairRDD<Integer, String> p = JavaPairRDD.fromJavaRDD(
                                (JavaRDD<Tuple2<Integer, String>>) rdds.get(1));
                        return n.mapToPair(x -> new Tuple2<>(x % 2, x)).join(p);
                    });
                },
                (ctx, numbers, words) -> {
                    var byLength = words.mapToPair(w -> new Tuple2<>(w.length(), w));
                    List<JavaDStream<?>> streams = Arrays.asList(numbers, byLength.toJavaDStream());
                    return ctx.transformToPair(streams, (rdds, time) -> {
                        JavaRDD<Integer> n = (JavaRDD<Integer>) rdds.get(0);
                        JavaPairRDD<Integer, String> p = JavaPairRDD.fromJavaRDD(
                                (JavaRDD<Tuple2<Integer, String>>) rdds.get(1));
                        return n.mapToPair(x -> new Tuple2<>(x % 2, x)).join(p);
                    });
                });
    }
}
