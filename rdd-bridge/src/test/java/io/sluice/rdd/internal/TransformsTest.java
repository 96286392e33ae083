package io.sluice.rdd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * Sluice's element-wise transformations and jobs give what Spark's Java API gives for the same functions:
 * the same records in every partition, the same partitioner kept or dropped, and a function's own exception.
 */
class TransformsTest {
    private static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = new JavaSparkContext(SparkContexts.withDefaults(new SparkConf().setMaster("local[2]")
                .setAppName("transforms").set("spark.ui.enabled", "false")));
    }

    @AfterAll
    static void stop() {
        sc.stop();
    }

    private static JavaRDD<String> lines() {
        return sc.parallelize(List.of("a b", "", "c", "d e f", "b", "a a"), 3);
    }

    private static JavaPairRDD<String, Integer> counts() {
        return sc.parallelizePairs(List.of(new Tuple2<>("a", 1), new Tuple2<>("b", 2), new Tuple2<>("c", 3),
                new Tuple2<>("a", 4)), 2).partitionBy(new HashPartitioner(3));
    }

    @Test
    void recordsTransformsEqualSparks() {
        assertEquals(lines().map(String::length).glom().collect(),
                Transforms.map(lines(), String::length).glom().collect());
        assertEquals(lines().flatMap(l -> Arrays.asList(l.split(" ")).iterator()).glom().collect(),
                Transforms.flatMap(lines(), l -> Arrays.asList(l.split(" ")).iterator()).glom().collect());
        assertEquals(lines().filter(l -> l.contains("a")).glom().collect(),
                Transforms.filter(lines(), l -> l.contains("a")).glom().collect());
        assertEquals(lines().mapToPair(l -> new Tuple2<>(l, l.length())).glom().collect(),
                Transforms.mapToPair(lines(), l -> new Tuple2<>(l, l.length())).glom().collect());
        assertEquals(lines().flatMapToPair(l -> List.of(new Tuple2<>(l, 1), new Tuple2<>(l, 2)).iterator())
                        .glom().collect(),
                Transforms.flatMapToPair(lines(), l -> List.of(new Tuple2<>(l, 1), new Tuple2<>(l, 2)).iterator())
                        .glom().collect());
        assertEquals(lines().mapPartitions(it -> List.of(count(it)).iterator()).collect(),
                Transforms.mapPartitions(lines(), it -> List.of(count(it)).iterator(), false).collect());
        assertEquals(lines().mapPartitionsWithIndex((i, it) -> List.of(i + ":" + count(it)).iterator(), false)
                        .collect(),
                Transforms.mapPartitionsWithIndex(lines(), (i, it) -> List.of(i + ":" + count(it)).iterator(), false)
                        .collect());
    }

    @Test
    void pairTransformsKeepThePartitionerAsSparksDo() {
        JavaPairRDD<String, Integer> doubled = Transforms.mapValues(counts(), v -> v * 2);
        assertEquals(counts().mapValues(v -> v * 2).glom().collect(), doubled.glom().collect());
        assertEquals(counts().partitioner(), doubled.partitioner());
        JavaPairRDD<String, Integer> spread = Transforms.flatMapValues(counts(), v -> List.of(v, -v).iterator());
        assertEquals(counts().flatMapValues(v -> List.of(v, -v).iterator()).glom().collect(), spread.glom().collect());
        assertEquals(counts().partitioner(), spread.partitioner());
        JavaPairRDD<String, Integer> kept = Transforms.filter(counts(), kv -> kv._2() > 1);
        assertEquals(counts().filter(kv -> kv._2() > 1).glom().collect(), kept.glom().collect());
        assertEquals(counts().partitioner(), kept.partitioner());
        assertFalse(Transforms.mapToPair(counts(), kv -> kv).partitioner().isPresent());
        assertTrue(Transforms.mapPartitions(counts(), it -> it, true).partitioner().isPresent());
    }

    @Test
    void jobsCountAndCollectInPartitionOrder() {
        JavaRDD<String> lines = lines();
        assertEquals(6, Jobs.count(lines.rdd()));
        assertEquals(lines.collect(), Jobs.collect(lines));
        assertEquals(0, Jobs.count(sc.emptyRDD().rdd()));
        assertEquals(List.of(), Jobs.collect(sc.emptyRDD()));
    }

    @Test
    void aFunctionsExceptionReachesTheJobUnchanged() {
        IOException cause = new IOException("bad line");
        SparkException e = assertThrows(SparkException.class, () -> Jobs.collect(Transforms.map(lines(), l -> {
            if (l.startsWith("d")) {
                throw cause;
            }
            return l;
        })));
        assertSame(IOException.class, e.getCause().getClass(), "not wrapped: " + e.getCause());
        assertEquals("bad line", e.getCause().getMessage());
    }

    private static int count(java.util.Iterator<?> it) {
        List<Object> all = new ArrayList<>();
        it.forEachRemaining(all::add);
        return all.size();
    }
}
