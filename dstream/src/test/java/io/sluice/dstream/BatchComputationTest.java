package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.internal.Operator;
import io.sluice.testkit.StreamTester;
import io.sluice.rdd.internal.JobTags;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.junit.jupiter.api.Test;

/** What the engine guarantees per batch: one RDD per stream and time, bounded memory, tagged Spark jobs. */
class BatchComputationTest {

    @Test
    void aStreamUsedByTwoOutputsComputesOneRddPerBatch() {
        AtomicInteger computations = new AtomicInteger();
        Map<Long, Set<Integer>> rddIds = new ConcurrentHashMap<>();
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> shared = t.input(List.of(List.of(1, 2), List.of(), List.of(3)))
                    .transform(rdd -> {
                        computations.incrementAndGet();
                        return rdd.map(x -> x * 2);
                    });
            shared.foreachRDD((rdd, time) -> {
                rddIds.computeIfAbsent(time.milliseconds(), k -> ConcurrentHashMap.newKeySet()).add(rdd.id());
            });
            shared.foreachRDD((rdd, time) -> {
                rddIds.computeIfAbsent(time.milliseconds(), k -> ConcurrentHashMap.newKeySet()).add(rdd.id());
            });
            t.collect(shared.map(x -> x + 1).union(shared));
            t.runBatches(3);
        }
        assertEquals(3, computations.get(), "the transform function ran once per batch");
        assertEquals(Set.of(1000L, 2000L, 3000L), rddIds.keySet());
        rddIds.values().forEach(ids -> assertEquals(1, ids.size(), "both outputs saw the same RDD: " + ids));
    }

    @Test
    void memoryStaysFlatOver300Batches() {
        var sc = io.sluice.testkit.SharedSpark.context();
        int persistedBefore = sc.getPersistentRDDs().size();
        List<Integer> maxRemembered = new ArrayList<>();
        List<Integer> persisted = new ArrayList<>();
        try (StreamTester t = new StreamTester()) {
            // Two cached streams and one Spark job per batch: cheap batches, the same bookkeeping as big ones.
            DStream<String> words = t.context().generatorStream(20, 5, 7L, 1).cache();
            words.map(w -> w + "!").cache().filter(w -> w.length() > 2).foreachRDD(rdd -> {
                rdd.count();
            });
            for (int round = 0; round < 6; round++) {
                t.runBatches(50);
                maxRemembered.add(t.context().lifecycle.graph().operators().stream().mapToInt(Operator::rememberedCount)
                        .max().orElse(0));
                persisted.add(sc.getPersistentRDDs().size() - persistedBefore);
            }
        }
        assertEquals(Collections.nCopies(6, 1), maxRemembered, "RDDs remembered by the busiest operator");
        assertTrue(persisted.stream().allMatch(n -> n <= 2), "persisted RDDs after each 50 batches: " + persisted);
        assertTrue(sc.getPersistentRDDs().size() - persistedBefore <= 2, "after stop");
    }

    @Test
    void everySparkJobIsTaggedWithItsBatchAndOutputOperationAndNamedAfterIt() throws Exception {
        var sc = io.sluice.testkit.SharedSpark.context().sc();
        List<String[]> jobs = Collections.synchronizedList(new ArrayList<>());
        SparkListener listener = new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart start) {
                var props = start.properties();
                jobs.add(new String[] {props == null ? null : props.getProperty("spark.jobGroup.id"),
                        props == null ? null : props.getProperty("spark.job.description"),
                        resultStage(start).name(),
                        String.join("; ", scala.jdk.javaapi.CollectionConverters.asJava(start.stageInfos()).stream()
                                .map(org.apache.spark.scheduler.StageInfo::name).toList())});
            }
        };
        sc.addSparkListener(listener);
        try (StreamTester t = new StreamTester()) {
            DStream<String> lines = t.input(List.of(List.of("a b", "b"), List.of("c")))
                    .transform(rdd -> {
                        rdd.count(); // a Spark job while the batch is generated, on the driver
                        return rdd;
                    });
            lines.flatMap(l -> List.of(l.split(" ")).iterator()).countByValue().print();
            t.collect(lines.count());
            t.runBatches(2);
            sc.listenerBus().waitUntilEmpty();
        } finally {
            sc.removeSparkListener(listener);
        }
        Set<String> groups = new TreeSet<>();
        for (String[] job : jobs) {
            groups.add(job[0]);
            assertTrue(job[1] != null && (job[1].startsWith("print at BatchComputationTest.java:")
                    || job[1].startsWith("foreachRDD at StreamTester.java:")), "description: " + job[1]);
            // Spark's stage names are call sites of the user's code, as in Spark Streaming: the result stage's the
            // output operation's (or, for a job run while the batch is generated, the operator's), a shuffle's
            // the operator that made it; never a frame of Sluice's own code, which Spark would find walking the
            // stack for every job and RDD
            assertTrue(job[2].equals(job[1]) || job[2].startsWith("transform at BatchComputationTest.java:"),
                    "result stage " + job[2] + " of a job of " + job[1]);
            for (String stage : job[3].split("; ")) {
                assertTrue(stage.matches("\\w+ at (BatchComputationTest|StreamTester)\\.java:\\d+"),
                        "stage " + stage + " of a job of " + job[1]);
            }
        }
        assertEquals(new TreeSet<>(List.of(JobTags.groupOf(1000), JobTags.groupOf(2000))), groups);
        assertTrue(jobs.size() >= 6, "jobs seen: " + jobs.size());
    }
    /** A job's result stage: DAGScheduler makes it after its parent stages, so it has the highest id. */
    private static org.apache.spark.scheduler.StageInfo resultStage(SparkListenerJobStart start) {
        return scala.jdk.javaapi.CollectionConverters.asJava(start.stageInfos()).stream()
                .max(java.util.Comparator.comparingInt(org.apache.spark.scheduler.StageInfo::stageId)).orElseThrow();
    }

    @Test
    void reduceByKeyRunsEachBatchInOneStageLocallyAndAWindowOverItReadsReleasedBatchesAgain() throws Exception {
        var sc = io.sluice.testkit.SharedSpark.context().sc();
        List<Integer> stagesPerJob = Collections.synchronizedList(new ArrayList<>());
        SparkListener listener = new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart start) {
                stagesPerJob.add(start.stageIds().size());
            }
        };
        sc.addSparkListener(listener);
        try (StreamTester t = new StreamTester()) {
            PairDStream<String, Integer> counts = t.input(List.of(List.of("a", "b", "a"), List.of("b"), List.of()))
                    .mapToPair(w -> new scala.Tuple2<>(w, 1)).reduceByKey(Integer::sum);
            var perBatch = t.collect(counts);
            var windowed = t.collect(counts.window(java.time.Duration.ofSeconds(2)));
            t.runBatches(3);
            perBatch.assertUnordered(List.of(
                    List.of(new scala.Tuple2<>("a", 2), new scala.Tuple2<>("b", 1)),
                    List.of(new scala.Tuple2<>("b", 1)),
                    List.of()));
            // Batch 2 s's window reads batch 1 s again after its exchange was released: recomputed, same counts.
            windowed.assertUnordered(List.of(
                    List.of(new scala.Tuple2<>("a", 2), new scala.Tuple2<>("b", 1)),
                    List.of(new scala.Tuple2<>("a", 2), new scala.Tuple2<>("b", 1), new scala.Tuple2<>("b", 1)),
                    List.of(new scala.Tuple2<>("b", 1))));
            sc.listenerBus().waitUntilEmpty();
        } finally {
            sc.removeSparkListener(listener);
        }
        assertTrue(!stagesPerJob.isEmpty() && stagesPerJob.stream().allMatch(n -> n == 1),
                "stages per job (a shuffle would add a map stage): " + stagesPerJob);
    }

    @Test
    void countRunsOneTaskPerSlotInLocalModeAndGivesEveryBatchItsCount() throws Exception {
        var sc = io.sluice.testkit.SharedSpark.context().sc(); // local[2,2]: two task slots
        Map<String, List<Integer>> tasksByBatch = new ConcurrentHashMap<>();
        SparkListener listener = new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart start) {
                String group = start.properties() == null ? null : start.properties().getProperty("spark.jobGroup.id");
                for (var stages = start.stageInfos().iterator(); stages.hasNext(); ) {
                    tasksByBatch.computeIfAbsent(String.valueOf(group), g -> Collections.synchronizedList(
                            new ArrayList<>())).add(stages.next().numTasks());
                }
            }
        };
        sc.addSparkListener(listener);
        try (StreamTester t = new StreamTester().partitions(4)) {
            var counts = t.collect(t.input(List.of(List.of("a", "b", "c", "d", "e"), List.<String>of(), List.of("f")))
                    .count());
            t.runBatches(3);
            sc.listenerBus().waitUntilEmpty();
            counts.assertBatches(List.of(List.of(5L), List.of(0L), List.of(1L)));
        } finally {
            sc.removeSparkListener(listener);
        }
        // Each batch, the empty one too: one job of one stage, its 4 input partitions read by 2 tasks.
        assertEquals(Map.of(JobTags.groupOf(1000), List.of(2), JobTags.groupOf(2000), List.of(2),
                JobTags.groupOf(3000), List.of(2)), Map.copyOf(tasksByBatch), "tasks per stage, by batch");
    }
}
