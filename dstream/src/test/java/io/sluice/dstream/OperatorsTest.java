package io.sluice.dstream;

import static io.sluice.testkit.StreamTester.expectBatches;
import static io.sluice.testkit.StreamTester.expectBatches2;
import static io.sluice.testkit.StreamTester.expectUnordered;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/** Per-batch tables for DStream's operators; every table has empty batches (in the input and after it). */
class OperatorsTest {
    private static final List<List<Integer>> NUMBERS = List.of(List.of(1, 2, 3, 4), List.of(), List.of(5, 6));

    @SafeVarargs
    private static <T> List<List<T>> batches(List<T>... batches) {
        return List.of(batches);
    }

    @Test
    void map() {
        expectBatches(NUMBERS, s -> s.map(x -> x * 10),
                batches(List.of(10, 20, 30, 40), List.of(), List.of(50, 60), List.of()));
    }

    @Test
    void flatMap() {
        expectBatches(NUMBERS, s -> s.flatMap(x -> List.of(x, -x).iterator()),
                batches(List.of(1, -1, 2, -2, 3, -3, 4, -4), List.of(), List.of(5, -5, 6, -6), List.of()));
    }

    @Test
    void filter() {
        expectBatches(NUMBERS, s -> s.filter(x -> x % 2 == 0),
                batches(List.of(2, 4), List.of(), List.of(6), List.of()));
    }

    @Test
    void mapPartitionsSeesEveryPartitionIncludingEmptyOnes() {
        // The scripted empty batch has the tester's 2 partitions; past the script, the queue's default has 1.
        expectBatches(NUMBERS, s -> s.mapPartitions(OperatorsTest::sumPartition),
                batches(List.of(3, 7), List.of(0, 0), List.of(5, 6), List.of(0)));
    }

    private static Iterator<Integer> sumPartition(Iterator<Integer> it) {
        int sum = 0;
        while (it.hasNext()) {
            sum += it.next();
        }
        return List.of(sum).iterator();
    }

    @Test
    void glomGivesOneListPerPartition() {
        expectBatches(NUMBERS, DStream::glom,
                batches(List.of(List.of(1, 2), List.of(3, 4)), List.of(List.of(), List.of()), List.of(List.of(5), List.of(6)),
                        List.of(List.of())));
    }

    @Test
    void mapToPairFlatMapToPairAndMapPartitionsToPair() {
        expectBatches(NUMBERS, s -> s.mapToPair(x -> new Tuple2<>(x % 2, x)),
                batches(List.of(new Tuple2<>(1, 1), new Tuple2<>(0, 2), new Tuple2<>(1, 3), new Tuple2<>(0, 4)),
                        List.of(), List.of(new Tuple2<>(1, 5), new Tuple2<>(0, 6)), List.of()));
        expectBatches(NUMBERS, s -> s.flatMapToPair(x -> x > 4 ? List.of(new Tuple2<>("big", x)).iterator()
                        : List.<Tuple2<String, Integer>>of().iterator()),
                batches(List.of(), List.of(), List.of(new Tuple2<>("big", 5), new Tuple2<>("big", 6)), List.of()));
        expectBatches(NUMBERS, s -> s.mapPartitionsToPair(it -> List.of(new Tuple2<>("sum", sumPartition(it).next()))
                        .iterator()),
                batches(List.of(new Tuple2<>("sum", 3), new Tuple2<>("sum", 7)),
                        List.of(new Tuple2<>("sum", 0), new Tuple2<>("sum", 0)),
                        List.of(new Tuple2<>("sum", 5), new Tuple2<>("sum", 6)), List.of(new Tuple2<>("sum", 0))));
    }

    @Test
    void unionOfTwoStreamsAndOfManyViaTheContext() {
        List<List<Integer>> other = List.of(List.of(100), List.of(200), List.of());
        expectBatches2(NUMBERS, other, DStream::union,
                batches(List.of(1, 2, 3, 4, 100), List.of(200), List.of(5, 6), List.of()));
        expectBatches2(NUMBERS, other, (a, b) -> a.context().union(b, a, b),
                batches(List.of(100, 1, 2, 3, 4, 100), List.of(200, 200), List.of(5, 6), List.of()));
        expectBatches2(NUMBERS, other, (a, b) -> a.context().union(List.of(a, b.map(x -> x + 1))),
                batches(List.of(1, 2, 3, 4, 101), List.of(201), List.of(5, 6), List.of()));
    }

    @Test
    void repartitionChangesThePartitionCountAndKeepsTheRecords() {
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> repartitioned = t.input(NUMBERS).repartition(5);
            Collected<Integer> partitions = t.collect(repartitioned.transform(
                    rdd -> rdd.context().parallelize(
                            scala.jdk.javaapi.CollectionConverters.asScala(List.of(rdd.getNumPartitions())).toSeq(),
                            1, scala.reflect.ClassTag$.MODULE$.apply(Integer.class)).toJavaRDD()));
            Collected<Integer> records = t.collect(repartitioned);
            t.runBatches(3);
            partitions.assertBatches(batches(List.of(5), List.of(5), List.of(5)));
            records.assertUnordered(batches(List.of(1, 2, 3, 4), List.of(), List.of(5, 6)));
        }
    }

    @Test
    void countIsOneElementPerBatchEvenWhenEmpty() {
        expectBatches(NUMBERS, DStream::count, batches(List.of(4L), List.of(0L), List.of(2L), List.of(0L)));
    }

    @Test
    void countByValue() {
        List<List<String>> words = List.of(List.of("a", "b", "a"), List.of(), List.of("c"));
        expectUnordered(words, DStream::countByValue, batches(
                List.of(new Tuple2<>("a", 2L), new Tuple2<>("b", 1L)), List.of(), List.of(new Tuple2<>("c", 1L)),
                List.of()));
        expectUnordered(words, s -> s.countByValue(3).glom().map(List::size).filter(n -> n > 0).count(),
                batches(List.of(2L), List.of(0L), List.of(1L), List.of(0L)));
    }

    @Test
    void reduceGivesNoElementForAnEmptyBatch() {
        expectBatches(NUMBERS, s -> s.reduce(Integer::sum), batches(List.of(10), List.of(), List.of(11), List.of()));
        expectBatches(NUMBERS, s -> s.reduce(Math::max), batches(List.of(4), List.of(), List.of(6), List.of()));
    }

    @Test
    void transformAndTransformWithTime() {
        expectBatches(NUMBERS, s -> s.transform(rdd -> rdd.map(x -> x + 1)),
                batches(List.of(2, 3, 4, 5), List.of(), List.of(6, 7), List.of()));
        expectBatches(NUMBERS, s -> s.transform((rdd, time) -> rdd.map(x -> time.milliseconds() + x)),
                batches(List.of(1001L, 1002L, 1003L, 1004L), List.of(), List.of(3005L, 3006L), List.of()));
    }

    @Test
    void transformToPair() {
        expectBatches(NUMBERS, s -> s.transformToPair(rdd -> rdd.mapToPair(x -> new Tuple2<>(x, x * x))),
                batches(List.of(new Tuple2<>(1, 1), new Tuple2<>(2, 4), new Tuple2<>(3, 9), new Tuple2<>(4, 16)),
                        List.of(), List.of(new Tuple2<>(5, 25), new Tuple2<>(6, 36)), List.of()));
        expectBatches(NUMBERS, s -> s.transformToPair((rdd, time) -> rdd.filter(x -> x > 4)
                        .mapToPair(x -> new Tuple2<>(time.milliseconds(), x))),
                batches(List.of(), List.of(), List.of(new Tuple2<>(3000L, 5), new Tuple2<>(3000L, 6)), List.of()));
    }

    @Test
    void transformWithAndTransformWithToPair() {
        List<List<String>> letters = List.of(List.of("x"), List.of("y", "z"), List.of());
        expectBatches2(NUMBERS, letters, (a, b) -> a.transformWith(b,
                        (x, y, time) -> x.map(String::valueOf).union(y).map(v -> v + "@" + time.milliseconds() / 1000)),
                batches(List.of("1@1", "2@1", "3@1", "4@1", "x@1"), List.of("y@2", "z@2"), List.of("5@3", "6@3"),
                        List.of()));
        expectBatches2(NUMBERS, letters, (a, b) -> a.transformWithToPair(b,
                        (x, y, time) -> x.cartesian(y)),
                batches(List.of(new Tuple2<>(1, "x"), new Tuple2<>(2, "x"), new Tuple2<>(3, "x"), new Tuple2<>(4, "x")),
                        List.of(), List.of(), List.of()));
        expectBatches2(NUMBERS, letters, (a, b) -> a.transformWith(b.mapToPair(l -> new Tuple2<>(l, 1)),
                        (JavaRDD<Integer> x, JavaPairRDD<String, Integer> y, Time time) -> {
                            long n = x.count();
                            return y.mapValues(v -> v + n).rdd().toJavaRDD();
                        }),
                batches(List.of(new Tuple2<>("x", 5L)), List.of(new Tuple2<>("y", 1L), new Tuple2<>("z", 1L)),
                        List.of(), List.of()));
    }

    @Test
    void queueStreamTakingAllQueuedRddsAtOnce() {
        try (StreamTester t = new StreamTester()) {
            java.util.Queue<org.apache.spark.api.java.JavaRDD<Integer>> queue = new java.util.ArrayDeque<>();
            queue.add(t.sparkContext().parallelize(List.of(1, 2)));
            queue.add(t.sparkContext().parallelize(List.of(3)));
            Collected<Integer> out = t.collect(t.context().queueStream(queue, false));
            t.runBatches(1);
            synchronized (queue) {
                queue.add(t.sparkContext().parallelize(List.of(4)));
            }
            t.runBatches(2);
            out.assertBatches(batches(List.of(1, 2, 3), List.of(4), List.of()));
        }
    }

    @Test
    void queueStreamWithDefaultRddWhenTheQueueIsEmpty() {
        try (StreamTester t = new StreamTester()) {
            java.util.Queue<org.apache.spark.api.java.JavaRDD<Integer>> queue = new java.util.ArrayDeque<>();
            queue.add(t.sparkContext().parallelize(List.of(1)));
            Collected<Integer> out = t.collect(t.context().queueStream(queue, true,
                    t.sparkContext().parallelize(List.of(-1, -2))));
            t.runBatches(3);
            out.assertBatches(batches(List.of(1), List.of(-1, -2), List.of(-1, -2)));
        }
    }

    @Test
    void generatorIsDeterministicPerBatchTimeAcrossContexts() {
        List<Map<Time, List<String>>> runs = new ArrayList<>();
        List<List<io.sluice.dstream.scheduler.BatchInfo>> infos = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            try (StreamTester t = new StreamTester()) {
                Collected<String> out = t.collect(t.context().generatorStream(50, 7, 42L, 3));
                infos.add(t.runBatches(3));
                runs.add(out.byTime());
            }
        }
        assertEquals(runs.get(0), runs.get(1), "same batch times, same records");
        List<List<String>> first = new ArrayList<>(new java.util.TreeMap<>(runs.get(0)).values());
        for (List<String> batch : first) {
            assertEquals(50, batch.size());
            batch.forEach(w -> assertEquals(true, w.matches("w[0-6]"), w));
        }
        assertEquals(false, first.get(0).equals(first.get(1)), "different batch times give different records");
        infos.get(0).forEach(i -> assertEquals(50, i.numRecords(), "the generator reports its record count"));
    }

    @Test
    void generatorWithADifferentSeedGivesDifferentRecords() {
        List<List<String>> a;
        List<List<String>> b;
        try (StreamTester t = new StreamTester()) {
            Collected<String> out = t.collect(t.context().generatorStream(40, 1000, 1L, 2));
            t.runBatches(1);
            a = out.batches();
        }
        try (StreamTester t = new StreamTester()) {
            Collected<String> out = t.collect(t.context().generatorStream(40, 1000, 2L, 2));
            t.runBatches(1);
            b = out.batches();
        }
        assertEquals(false, a.equals(b));
        assertEquals(List.of(40), List.of(b.get(0).size()));
    }

    @Test
    void wordCountOfLines() {
        expectUnordered(List.of(List.of("a b", "b"), List.of()), s -> s.flatMap(l -> Arrays.asList(l.split(" "))
                        .iterator()).mapToPair(w -> new Tuple2<>(w, 1)).reduceByKey(Integer::sum),
                batches(List.of(new Tuple2<>("a", 1), new Tuple2<>("b", 2)), List.of()));
    }
}
