package io.sluice.dstream;

import static io.sluice.dstream.testing.Differential.Order.ORDERED;
import static io.sluice.dstream.testing.Differential.Order.UNORDERED;
import static io.sluice.dstream.testing.Differential.compare;
import static io.sluice.dstream.testing.Differential.compare2;
import static io.sluice.dstream.testing.Differential.compareIn;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import java.util.Queue;
import scala.Tuple2;

/**
 * Sluice against Spark Streaming 4.2.0, batch for batch, on the same pipelines and input (see {@link
 * io.sluice.dstream.testing.Differential}). Each pipeline is written once per API; the lambdas are the same
 * text. The input includes empty batches, and one more empty batch runs after it.
 */
class DifferentialTest {
    private static final List<List<String>> LINES = List.of(
            List.of("a b", "b c", "d"),
            List.of(),
            List.of("c c c", "a"),
            List.of("e f g", "", "a a"));
    private static final List<List<String>> OTHER = List.of(
            List.of("a x", "c y"),
            List.of("b z"),
            List.of(),
            List.of("a w", "e v", "q r", "a u"));

    private static Iterator<String> words(String line) {
        return Arrays.asList(line.split(" ")).iterator();
    }

    private static Tuple2<String, String> split(String s) {
        String[] kv = s.split(" ");
        return new Tuple2<>(kv[0], kv.length > 1 ? kv[1] : "");
    }

    private static Iterator<String> joinPartition(Iterator<String> it) {
        StringBuilder b = new StringBuilder();
        it.forEachRemaining(b::append);
        return List.of(b.toString()).iterator();
    }

    private static Iterator<Tuple2<String, Integer>> wordPairs(Iterator<String> lines) {
        List<Tuple2<String, Integer>> out = new ArrayList<>();
        lines.forEachRemaining(l -> out.add(new Tuple2<>(l, l.length())));
        return out.iterator();
    }

    @Test
    void elementWiseOperators() {
        compare(LINES, ORDERED,
                s -> s.flatMap(DifferentialTest::words).filter(w -> !w.isEmpty()).map(w -> w + "!")
                        .mapPartitions(DifferentialTest::joinPartition).glom().map(List::toString),
                s -> s.flatMap(DifferentialTest::words).filter(w -> !w.isEmpty()).map(w -> w + "!")
                        .mapPartitions(DifferentialTest::joinPartition).glom().map(List::toString));
    }

    @Test
    void pairProducingOperators() {
        compare(LINES, ORDERED,
                s -> s.mapToPair(DifferentialTest::split).union(s.flatMapToPair(l -> List.of(split(l)).iterator()))
                        .union(s.mapPartitionsToPair(DifferentialTest::wordPairs).mapValues(n -> "#" + n))
                        .flatMapValues(v -> List.of(v, v.toUpperCase()).iterator()),
                s -> s.mapToPair(DifferentialTest::split).union(s.flatMapToPair(l -> List.of(split(l)).iterator()))
                        .union(s.mapPartitionsToPair(DifferentialTest::wordPairs).mapValues(n -> "#" + n))
                        .flatMapValues(v -> List.of(v, v.toUpperCase()).iterator()));
    }

    @Test
    void aggregationsPerBatch() {
        compare(LINES, ORDERED,
                s -> s.count().map(n -> "count " + n)
                        .union(s.map(String::length).reduce(Integer::sum).map(n -> "sum " + n))
                        .union(s.flatMap(DifferentialTest::words).countByValue().count().map(n -> "distinct " + n)),
                s -> s.count().map(n -> "count " + n)
                        .union(s.map(String::length).reduce(Integer::sum).map(n -> "sum " + n))
                        .union(s.flatMap(DifferentialTest::words).countByValue().count().map(n -> "distinct " + n)));
        compare(LINES, UNORDERED,
                s -> s.flatMap(DifferentialTest::words).countByValue(3),
                s -> s.flatMap(DifferentialTest::words).countByValue(3));
    }

    @Test
    void shufflesByKey() {
        compare(LINES, UNORDERED,
                s -> s.flatMap(DifferentialTest::words).mapToPair(w -> new Tuple2<>(w, 1)).reduceByKey(Integer::sum),
                s -> s.flatMap(DifferentialTest::words).mapToPair(w -> new Tuple2<>(w, 1)).reduceByKey(Integer::sum));
        compare(LINES, UNORDERED,
                s -> s.flatMap(DifferentialTest::words).mapToPair(w -> new Tuple2<>(w, w.length()))
                        .groupByKey(3).union(s.mapToPair(l -> new Tuple2<>(l, l.length())).groupByKey()),
                s -> s.flatMap(DifferentialTest::words).mapToPair(w -> new Tuple2<>(w, w.length()))
                        .groupByKey(3).union(s.mapToPair(l -> new Tuple2<>(l, l.length())).groupByKey()));
        compare(LINES, UNORDERED,
                s -> s.flatMap(DifferentialTest::words).mapToPair(w -> new Tuple2<>(w, 1))
                        .combineByKey(v -> (long) v, (c, v) -> c + v, Long::sum, new HashPartitioner(3)),
                s -> s.flatMap(DifferentialTest::words).mapToPair(w -> new Tuple2<>(w, 1))
                        .combineByKey(v -> (long) v, (c, v) -> c + v, Long::sum, new HashPartitioner(3)));
    }

    @Test
    void repartitionKeepsRecordsAndSetsPartitionCount() {
        compare(LINES, UNORDERED,
                s -> s.repartition(3).glom().map(p -> "size " + p.size()).union(s.repartition(3)),
                s -> s.repartition(3).glom().map(p -> "size " + p.size()).union(s.repartition(3)));
    }

    @Test
    void transforms() {
        compare(LINES, ORDERED,
                s -> s.transform(rdd -> rdd.map(String::length))
                        .transform((rdd, time) -> rdd.map(n -> n + "@" + time.milliseconds()))
                        .transformToPair(rdd -> rdd.mapToPair(x -> new Tuple2<>(x, 1)))
                        .transformToPair((rdd, time) -> rdd.mapToPair(x -> new Tuple2<>(x._1(), time.milliseconds()))),
                s -> s.transform(rdd -> rdd.map(String::length))
                        .transform((rdd, time) -> rdd.map(n -> n + "@" + time.milliseconds()))
                        .transformToPair(rdd -> rdd.mapToPair(x -> new Tuple2<>(x, 1)))
                        .transformToPair((rdd, time) -> rdd.mapToPair(x -> new Tuple2<>(x._1(), time.milliseconds()))));
    }

    @Test
    void twoInputTransformsAndUnion() {
        compare2(LINES, OTHER, ORDERED,
                (a, b) -> a.transformWith(b, (x, y, time) -> x.union(y).map(v -> v + "@" + time.milliseconds()))
                        .union(a.transformWithToPair(b, (x, y, time) -> x.zipPartitions(y, (i, j) -> {
                            List<Tuple2<String, String>> out = new ArrayList<>();
                            while (i.hasNext() && j.hasNext()) {
                                out.add(new Tuple2<>(i.next(), j.next()));
                            }
                            return out.iterator();
                        }).mapToPair(t -> t)).map(Tuple2::toString)),
                (a, b) -> a.transformWith(b, (x, y, time) -> x.union(y).map(v -> v + "@" + time.milliseconds()))
                        .union(a.transformWithToPair(b, (x, y, time) -> x.zipPartitions(y, (i, j) -> {
                            List<Tuple2<String, String>> out = new ArrayList<>();
                            while (i.hasNext() && j.hasNext()) {
                                out.add(new Tuple2<>(i.next(), j.next()));
                            }
                            return out.iterator();
                        }).mapToPair(t -> t)).map(Tuple2::toString)));
    }

    @Test
    void joins() {
        compare2(LINES, OTHER, UNORDERED,
                (a, b) -> a.mapToPair(DifferentialTest::split).join(b.mapToPair(DifferentialTest::split))
                        .map(Tuple2::toString),
                (a, b) -> a.mapToPair(DifferentialTest::split).join(b.mapToPair(DifferentialTest::split))
                        .map(Tuple2::toString));
        compare2(LINES, OTHER, UNORDERED,
                (a, b) -> a.mapToPair(DifferentialTest::split).leftOuterJoin(b.mapToPair(DifferentialTest::split), 3)
                        .map(Tuple2::toString)
                        .union(a.mapToPair(DifferentialTest::split)
                                .rightOuterJoin(b.mapToPair(DifferentialTest::split), new HashPartitioner(4))
                                .map(Tuple2::toString))
                        .union(a.mapToPair(DifferentialTest::split).fullOuterJoin(b.mapToPair(DifferentialTest::split))
                                .map(Tuple2::toString)),
                (a, b) -> a.mapToPair(DifferentialTest::split).leftOuterJoin(b.mapToPair(DifferentialTest::split), 3)
                        .map(Tuple2::toString)
                        .union(a.mapToPair(DifferentialTest::split)
                                .rightOuterJoin(b.mapToPair(DifferentialTest::split), new HashPartitioner(4))
                                .map(Tuple2::toString))
                        .union(a.mapToPair(DifferentialTest::split).fullOuterJoin(b.mapToPair(DifferentialTest::split))
                                .map(Tuple2::toString)));
        compare2(LINES, OTHER, UNORDERED,
                (a, b) -> a.mapToPair(DifferentialTest::split).cogroup(b.mapToPair(DifferentialTest::split), 3),
                (a, b) -> a.mapToPair(DifferentialTest::split).cogroup(b.mapToPair(DifferentialTest::split), 3));
    }

    @Test
    @SuppressWarnings("unchecked") // Spark Streaming's JavaStreamingContext.union(JavaDStream<T>...) is not @SafeVarargs
    void contextUnionAndQueueStreamVariants() {
        compareIn(LINES, OTHER, ORDERED,
                (ctx, a, b) -> {
                    Queue<JavaRDD<String>> all = new ArrayDeque<>(List.of(ctx.sparkContext().parallelize(List.of("q1")),
                            ctx.sparkContext().parallelize(List.of("q2", "q3"), 3)));
                    Queue<JavaRDD<String>> one = new ArrayDeque<>(List.of(ctx.sparkContext().parallelize(List.of("o1"))));
                    Queue<JavaRDD<String>> none = new ArrayDeque<>();
                    return ctx.union(a, b, a)
                            .union(ctx.queueStream(all, false))
                            .union(ctx.queueStream(one, true, ctx.sparkContext().parallelize(List.of("d1", "d2"), 1)))
                            .union(ctx.queueStream(none).glom().map(p -> "partition of " + p.size()));
                },
                (ctx, a, b) -> {
                    Queue<JavaRDD<String>> all = new ArrayDeque<>(List.of(ctx.sparkContext().parallelize(List.of("q1")),
                            ctx.sparkContext().parallelize(List.of("q2", "q3"), 3)));
                    Queue<JavaRDD<String>> one = new ArrayDeque<>(List.of(ctx.sparkContext().parallelize(List.of("o1"))));
                    Queue<JavaRDD<String>> none = new ArrayDeque<>();
                    return ctx.union(a, b, a)
                            .union(ctx.queueStream(all, false))
                            .union(ctx.queueStream(one, true, ctx.sparkContext().parallelize(List.of("d1", "d2"), 1)))
                            .union(ctx.queueStream(none).glom().map(p -> "partition of " + p.size()));
                });
    }

    private static JavaRDD<String> levelOf(JavaRDD<String> rdd) {
        String level = rdd.getStorageLevel().description();
        return rdd.map(x -> level);
    }

    /**
     * The level alone, without computing {@code rdd}: a replicated level's blocks would find no peer in local mode,
     * and both engines' block managers would warn on every block.
     */
    private static JavaRDD<String> levelAlone(JavaRDD<String> rdd) {
        String level = rdd.getStorageLevel().description();
        return JavaSparkContext.fromSparkContext(rdd.context()).parallelize(List.of(level), 1);
    }

    @Test
    void cacheAndPersistLevels() {
        compare(LINES, ORDERED,
                s -> s.map(x -> x).cache().transform(DifferentialTest::levelOf)
                        .union(s.map(x -> x).persist().transform(DifferentialTest::levelOf))
                        .union(s.map(x -> x).persist(StorageLevel.MEMORY_AND_DISK_2())
                                .transform(DifferentialTest::levelAlone))
                        .union(s.map(x -> x).transform(DifferentialTest::levelOf)),
                s -> s.map(x -> x).cache().transform(DifferentialTest::levelOf)
                        .union(s.map(x -> x).persist().transform(DifferentialTest::levelOf))
                        .union(s.map(x -> x).persist(StorageLevel.MEMORY_AND_DISK_2())
                                .transform(DifferentialTest::levelAlone))
                        .union(s.map(x -> x).transform(DifferentialTest::levelOf)));
    }
}
