package io.sluice.rdd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.HashPartitioner;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/** Sluice's shuffles read their input through at most one map task per task slot, with the same results. */
class TaskSlotsTest {
    private static JavaSparkContext context(boolean pack) {
        return new JavaSparkContext(SparkContexts.withDefaults(new SparkConf().setMaster("local[2]")
                .setAppName("task-slots").set("spark.ui.enabled", "false")
                .set(TaskSlots.PACK_MAP_SIDE, Boolean.toString(pack))));
    }

    private static JavaPairRDD<String, Integer> words(JavaSparkContext sc, int partitions) {
        List<Tuple2<String, Integer>> records = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            records.add(new Tuple2<>("w" + (i % 37), 1));
        }
        return sc.parallelizePairs(records, partitions);
    }

    private static Map<String, Integer> expectedCounts() {
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < 600; i++) {
            counts.merge("w" + (i % 37), 1, Integer::sum);
        }
        return counts;
    }

    /** Partitions of the RDD a shuffle's map tasks read (one map task each). */
    private static int mapTasks(JavaPairRDD<?, ?> shuffled) {
        return shuffled.rdd().dependencies().head().rdd().getNumPartitions();
    }

    @Test
    void packsTheMapSideIntoOneTaskPerSlotAndKeepsTheResult() {
        try (JavaSparkContext sc = context(true)) {
            assertEquals(2, TaskSlots.of(sc.sc()));
            HashPartitioner partitioner = new HashPartitioner(3);

            JavaPairRDD<String, Integer> reduced = Aggregations.reduceByKey(words(sc, 6), Integer::sum, partitioner);
            assertEquals(2, mapTasks(reduced));
            assertEquals(3, reduced.getNumPartitions());
            assertEquals(expectedCounts(), new TreeMap<>(reduced.collectAsMap()));

            RDD<Tuple2<String, Integer>> moved = Shuffles.partitionBy(words(sc, 5).rdd(), partitioner, null);
            assertEquals(2, moved.dependencies().head().rdd().getNumPartitions());
            assertEquals(600L, moved.count());

            // no more partitions than slots: read as they are; already partitioned: no shuffle at all
            assertEquals(2, mapTasks(Aggregations.reduceByKey(words(sc, 2), Integer::sum, partitioner)));
            RDD<Tuple2<String, Integer>> placed = words(sc, 4).partitionBy(partitioner).rdd();
            assertSame(placed, Shuffles.partitionBy(placed, partitioner, null));
        }
    }

    @Test
    void keepsOneMapTaskPerInputPartitionWhenPackingIsOff() {
        try (JavaSparkContext sc = context(false)) {
            JavaPairRDD<String, Integer> reduced =
                    Aggregations.reduceByKey(words(sc, 6), Integer::sum, new HashPartitioner(3));
            assertEquals(6, mapTasks(reduced));
            assertEquals(expectedCounts(), new TreeMap<>(reduced.collectAsMap()));
        }
    }

    @Test
    void actionsRunOneTaskPerSlotInLocalModeUnlessTurnedOff() {
        try (JavaSparkContext sc = context(true)) {
            assertEquals(2, TaskSlots.forActions(words(sc, 6).rdd()));
            assertEquals(0, TaskSlots.forActions(words(sc, 2).rdd()), "no more partitions than slots");
        }
        try (JavaSparkContext sc = new JavaSparkContext(SparkContexts.withDefaults(new SparkConf()
                .setMaster("local[2]").setAppName("task-slots").set("spark.ui.enabled", "false")
                .set(TaskSlots.PACK_ACTIONS, "false")))) {
            assertEquals(0, TaskSlots.forActions(words(sc, 6).rdd()));
        }
    }
}
