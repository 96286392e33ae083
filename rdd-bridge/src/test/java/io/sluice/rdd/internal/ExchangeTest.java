package io.sluice.rdd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.Partitioner;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.util.LongAccumulator;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/** Records reach the same partitions, in the same order, whether exchanged locally or shuffled. */
class ExchangeTest {
    private static final int RECORDS = 900;

    private static JavaSparkContext context(String master, boolean local) {
        return new JavaSparkContext(SparkContexts.withDefaults(new SparkConf().setMaster(master)
                .setAppName("exchange").set("spark.ui.enabled", "false")
                .set(Exchange.LOCAL, Boolean.toString(local))));
    }

    /** Records (key i % 23, value i) in 5 partitions, counting every record the input computes. */
    private static RDD<Tuple2<Integer, Integer>> records(JavaSparkContext sc, LongAccumulator computed) {
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            values.add(i);
        }
        return sc.parallelize(values, 5).map(i -> {
            computed.add(1);
            return new Tuple2<>(i % 23, i);
        }).rdd();
    }

    /** Each partition's records, in the order the partition yields them. */
    private static List<List<Tuple2<Integer, Integer>>> byPartition(RDD<Tuple2<Integer, Integer>> rdd) {
        return new JavaRDD<>(rdd, rdd.elementClassTag()).glom().collect();
    }

    /** What partitionBy gives: partition p holds the records its key maps to, in input order. */
    private static List<List<Tuple2<Integer, Integer>>> expected(Partitioner partitioner) {
        List<List<Tuple2<Integer, Integer>>> parts = new ArrayList<>();
        for (int p = 0; p < partitioner.numPartitions(); p++) {
            parts.add(new ArrayList<>());
        }
        for (int i = 0; i < RECORDS; i++) {
            parts.get(partitioner.getPartition(i % 23)).add(new Tuple2<>(i % 23, i));
        }
        return parts;
    }

    @Test
    void localModeRoutesWithinOneStageAndComputesTheInputOnce() {
        try (JavaSparkContext sc = context("local[2]", true)) {
            assertTrue(Exchange.isLocal(sc.sc()));
            LongAccumulator computed = sc.sc().longAccumulator();
            HashPartitioner partitioner = new HashPartitioner(4);
            Exchange<Integer, Integer> exchange = Exchange.of(records(sc, computed), partitioner, null);
            RDD<Tuple2<Integer, Integer>> moved = exchange.rdd();

            assertFalse(moved.dependencies().head() instanceof ShuffleDependency);
            assertEquals(partitioner, moved.partitioner().get());
            assertEquals(expected(partitioner), byPartition(moved));
            assertEquals(RECORDS, computed.value()); // four output tasks read each input partition it computed once

            assertEquals(expected(partitioner), byPartition(moved)); // read again from the kept buckets
            assertEquals(RECORDS, computed.value());

            exchange.release(); // a recomputation after release computes the input again, with the same result
            assertEquals(expected(partitioner), byPartition(moved));
            assertEquals(2 * RECORDS, computed.value());
            exchange.release();
        }
    }

    @Test
    void shufflesWhenTheLocalExchangeIsOff() {
        try (JavaSparkContext sc = context("local[2]", false)) {
            assertFalse(Exchange.isLocal(sc.sc()));
            HashPartitioner partitioner = new HashPartitioner(4);
            RDD<Tuple2<Integer, Integer>> moved =
                    Exchange.of(records(sc, sc.sc().longAccumulator()), partitioner, null).rdd();
            assertInstanceOf(ShuffleDependency.class, moved.dependencies().head());
            List<List<Tuple2<Integer, Integer>>> parts = byPartition(moved);
            List<List<Tuple2<Integer, Integer>>> want = expected(partitioner);
            for (int p = 0; p < want.size(); p++) { // a shuffle's fetch order across map tasks is not fixed
                assertEquals(sorted(want.get(p)), sorted(parts.get(p)));
            }
        }
    }

    @Test
    void leavesRecordsThatArePartitionedAlready() {
        try (JavaSparkContext sc = context("local[2]", true)) {
            HashPartitioner partitioner = new HashPartitioner(4);
            RDD<Tuple2<Integer, Integer>> input = records(sc, sc.sc().longAccumulator());
            RDD<Tuple2<Integer, Integer>> placed = JavaPairRDD.fromJavaRDD(new JavaRDD<>(input, input.elementClassTag()))
                    .partitionBy(partitioner).rdd();
            assertSame(placed, Exchange.of(placed, partitioner, null).rdd());
        }
    }

    private static List<Integer> sorted(List<Tuple2<Integer, Integer>> records) {
        return records.stream().map(Tuple2::_2).sorted().toList();
    }
}
