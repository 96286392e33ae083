package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.spark.HashPartitioner;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * Per-batch tables for PairDStream's by-key operations, each overload's resulting partitioner asserted:
 * none given means a hash partitioner over the default parallelism (2 in tests).
 */
class PairOperatorsTest {
    private static final List<List<Tuple2<String, Integer>>> LEFT = List.of(
            List.of(new Tuple2<>("a", 1), new Tuple2<>("b", 2), new Tuple2<>("a", 3)),
            List.of(),
            List.of(new Tuple2<>("c", 5)));
    private static final List<List<Tuple2<String, String>>> RIGHT = List.of(
            List.of(new Tuple2<>("a", "x"), new Tuple2<>("z", "y")),
            List.of(new Tuple2<>("b", "w")),
            List.of());

    /** Orders by key length parity: not a hash partitioner, so passing it through is observable. */
    static final class ParityPartitioner extends Partitioner {
        @Override
        public int numPartitions() {
            return 2;
        }

        @Override
        public int getPartition(Object key) {
            return key.hashCode() & 1;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof ParityPartitioner;
        }

        @Override
        public int hashCode() {
            return 7;
        }
    }

    private static final HashPartitioner DEFAULT = new HashPartitioner(2);
    private static final Partitioner CUSTOM = new ParityPartitioner();

    /** Runs the pipeline on LEFT (and RIGHT), asserts each batch's output as a multiset and its partitioner. */
    private static <R> void check(BiFunction<PairDStream<String, Integer>, PairDStream<String, String>, PairDStream<String, R>> pipeline,
            Partitioner partitioner, List<? extends List<?>> expected) {
        List<Object> seen = Collections.synchronizedList(new ArrayList<>());
        try (StreamTester t = new StreamTester()) {
            PairDStream<String, R> out = pipeline.apply(t.input(LEFT).mapToPair(x -> x), t.input(RIGHT).mapToPair(x -> x));
            out.foreachRDD(rdd -> {
                seen.add(rdd.partitioner().isPresent() ? rdd.partitioner().get() : "no partitioner");
                seen.add(rdd.getNumPartitions());
            });
            Collected<Tuple2<String, R>> collected = t.collect(out);
            t.runBatches(expected.size());
            collected.assertUnordered(expected);
        }
        List<Object> want = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
            want.add(partitioner); // Partitioner.equals: same kind, same partition count
            want.add(partitioner.numPartitions());
        }
        assertEquals(want, seen, "partitioner and partition count of each batch");
    }

    @SafeVarargs
    private static <T> List<List<T>> batches(List<T>... batches) {
        return List.of(batches);
    }

    private static <A, B> Tuple2<A, B> t(A a, B b) {
        return new Tuple2<>(a, b);
    }

    private static final List<List<Tuple2<String, Integer>>> SUMS = batches(List.of(t("a", 4), t("b", 2)), List.of(),
            List.of(t("c", 5)), List.of());

    @Test
    void reduceByKeyOverloads() {
        check((l, r) -> l.reduceByKey(Integer::sum), DEFAULT, SUMS);
        check((l, r) -> l.reduceByKey(Integer::sum, 3), new HashPartitioner(3), SUMS);
        check((l, r) -> l.reduceByKey(Integer::sum, CUSTOM), CUSTOM, SUMS);
    }

    @Test
    void groupByKeyOverloads() {
        List<List<Tuple2<String, List<Integer>>>> groups = batches(List.of(t("a", List.of(3, 1)), t("b", List.of(2))),
                List.of(), List.of(t("c", List.of(5))), List.of());
        // grouped values compare as multisets, so expected lists stand for bags
        List<List<Tuple2<String, Iterable<Integer>>>> expected = new ArrayList<>();
        for (List<Tuple2<String, List<Integer>>> batch : groups) {
            List<Tuple2<String, Iterable<Integer>>> b = new ArrayList<>();
            batch.forEach(x -> b.add(t(x._1(), (Iterable<Integer>) new ArrayList<>(x._2())::iterator)));
            expected.add(b);
        }
        check((l, r) -> l.groupByKey(), DEFAULT, expected);
        check((l, r) -> l.groupByKey(4), new HashPartitioner(4), expected);
        check((l, r) -> l.groupByKey(CUSTOM), CUSTOM, expected);
    }

    @Test
    void combineByKeyWithAndWithoutMapSideCombine() {
        List<List<Tuple2<String, String>>> expected = batches(List.of(t("a", "<1><3>"), t("b", "<2>")), List.of(),
                List.of(t("c", "<5>")), List.of());
        // value order within a key is not fixed: the combiner sorts what it merges
        check((l, r) -> l.combineByKey(v -> "<" + v + ">", (c, v) -> sorted(c + "<" + v + ">"),
                (c1, c2) -> sorted(c1 + c2), CUSTOM), CUSTOM, expected);
        check((l, r) -> l.combineByKey(v -> "<" + v + ">", (c, v) -> sorted(c + "<" + v + ">"),
                (c1, c2) -> sorted(c1 + c2), new HashPartitioner(3), false), new HashPartitioner(3), expected);
    }

    private static String sorted(String combined) {
        List<String> parts = new ArrayList<>(List.of(combined.substring(1, combined.length() - 1).split("><")));
        Collections.sort(parts);
        return "<" + String.join("><", parts) + ">";
    }

    @Test
    void mapValuesAndFlatMapValuesKeepThePartitioner() {
        check((l, r) -> l.reduceByKey(Integer::sum, 3).mapValues(v -> v * 10), new HashPartitioner(3),
                batches(List.of(t("a", 40), t("b", 20)), List.of(), List.of(t("c", 50)), List.of()));
        check((l, r) -> l.reduceByKey(Integer::sum, CUSTOM).flatMapValues(v -> List.of(v, -v).iterator()), CUSTOM,
                batches(List.of(t("a", 4), t("a", -4), t("b", 2), t("b", -2)), List.of(),
                        List.of(t("c", 5), t("c", -5)), List.of()));
    }

    private static final List<List<Tuple2<String, Tuple2<Integer, String>>>> JOINED = batches(
            List.of(t("a", t(1, "x")), t("a", t(3, "x"))), List.of(), List.of(), List.of());

    @Test
    void joinOverloads() {
        check((l, r) -> l.join(r), DEFAULT, JOINED);
        check((l, r) -> l.join(r, 5), new HashPartitioner(5), JOINED);
        check((l, r) -> l.join(r, CUSTOM), CUSTOM, JOINED);
    }

    @Test
    void outerJoinOverloads() {
        Optional<String> none = Optional.empty();
        Optional<Integer> noInt = Optional.empty();
        List<List<Tuple2<String, Tuple2<Integer, Optional<String>>>>> left = batches(
                List.of(t("a", t(1, Optional.of("x"))), t("a", t(3, Optional.of("x"))), t("b", t(2, none))),
                List.of(), List.of(t("c", t(5, none))), List.of());
        check((l, r) -> l.leftOuterJoin(r), DEFAULT, left);
        check((l, r) -> l.leftOuterJoin(r, 3), new HashPartitioner(3), left);
        check((l, r) -> l.leftOuterJoin(r, CUSTOM), CUSTOM, left);
        List<List<Tuple2<String, Tuple2<Optional<Integer>, String>>>> right = batches(
                List.of(t("a", t(Optional.of(1), "x")), t("a", t(Optional.of(3), "x")), t("z", t(noInt, "y"))),
                List.of(t("b", t(noInt, "w"))), List.of(), List.of());
        check((l, r) -> l.rightOuterJoin(r), DEFAULT, right);
        check((l, r) -> l.rightOuterJoin(r, 3), new HashPartitioner(3), right);
        check((l, r) -> l.rightOuterJoin(r, CUSTOM), CUSTOM, right);
        List<List<Tuple2<String, Tuple2<Optional<Integer>, Optional<String>>>>> full = batches(
                List.of(t("a", t(Optional.of(1), Optional.of("x"))), t("a", t(Optional.of(3), Optional.of("x"))),
                        t("b", t(Optional.of(2), none)), t("z", t(noInt, Optional.of("y")))),
                List.of(t("b", t(noInt, Optional.of("w")))), List.of(t("c", t(Optional.of(5), none))), List.of());
        check((l, r) -> l.fullOuterJoin(r), DEFAULT, full);
        check((l, r) -> l.fullOuterJoin(r, 3), new HashPartitioner(3), full);
        check((l, r) -> l.fullOuterJoin(r, CUSTOM), CUSTOM, full);
    }

    @Test
    void cogroupOverloads() {
        List<List<Tuple2<String, Tuple2<Iterable<Integer>, Iterable<String>>>>> expected = batches(
                List.of(t("a", t(bag(1, 3), bag("x"))), t("b", t(bag(2), bag())), t("z", t(bag(), bag("y")))),
                List.of(t("b", t(bag(), bag("w")))), List.of(t("c", t(bag(5), bag()))), List.of());
        check((l, r) -> l.cogroup(r), DEFAULT, expected);
        check((l, r) -> l.cogroup(r, 3), new HashPartitioner(3), expected);
        check((l, r) -> l.cogroup(r, CUSTOM), CUSTOM, expected);
    }

    @SafeVarargs
    private static <T> Iterable<T> bag(T... values) {
        List<T> list = List.of(values);
        return list::iterator; // not a List: compared as a multiset
    }
}
