package io.sluice.rdd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Per-partition actions: several RDDs' partitions in one job of few tasks, each partition in order; Sluice's own
 * count and collect in local mode run one task per slot.
 */
class JobsTest {
    private static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = new JavaSparkContext(SparkContexts.withDefaults(new SparkConf().setMaster("local[2]")
                .setAppName("jobs").set("spark.ui.enabled", "false")));
    }

    @AfterAll
    static void stop() {
        sc.stop();
    }

    /** "work:partition:attempt:sum of the partition's records". */
    private static Jobs.PartitionAction<Integer, String> describe(String work) {
        return (partition, attempt, records) -> {
            int sum = 0;
            while (records.hasNext()) {
                sum += records.next();
            }
            return work + ":" + partition + ":" + attempt + ":" + sum;
        };
    }

    @Test
    void eachPartitionOfEachRunsEveryPartitionOfEveryRddInOneTaskPerSlot() {
        List<Jobs.Work<?, ?>> works = List.of(
                new Jobs.Work<>(sc.parallelize(List.of(1, 2, 3, 4, 5, 6), 3).rdd(), describe("a")),
                new Jobs.Work<>(sc.parallelize(List.of(10), 1).rdd(), describe("b")),
                new Jobs.Work<>(sc.parallelize(List.of(100, 200), 2).rdd(), describe("c")));
        List<List<Object>> results = Jobs.eachPartitionOfEach(works, 2);

        assertEquals(3, results.size());
        List<String> sums = List.of("a:0:3", "a:1:7", "a:2:11", "b:0:10", "c:0:100", "c:1:200");
        Map<Integer, Set<String>> attemptsBySlot = new HashMap<>();
        Set<String> attempts = new HashSet<>();
        int i = 0;
        for (List<Object> work : results) {
            for (int p = 0; p < work.size(); p++) {
                String[] r = ((String) work.get(p)).split(":");
                assertEquals(sums.get(i++), r[0] + ":" + r[1] + ":" + r[3], "in partition order");
                attemptsBySlot.computeIfAbsent(p % 2, s -> new HashSet<>()).add(r[2]);
                attempts.add(r[2]);
            }
        }
        assertEquals(6, i);
        // One job of two tasks: the partitions p with the same p % 2 ran in one task attempt.
        assertEquals(1, attemptsBySlot.get(0).size());
        assertEquals(1, attemptsBySlot.get(1).size());
        assertEquals(2, attempts.size());
    }

    @Test
    void aFailingActionFailsTheJobWithItsError() {
        Jobs.PartitionAction<Integer, String> failing = (partition, attempt, records) -> {
            throw new IllegalStateException("partition " + partition + " cannot be written");
        };
        List<Jobs.Work<?, ?>> works = List.of(
                new Jobs.Work<>(sc.parallelize(List.of(1, 2), 2).rdd(), describe("a")),
                new Jobs.Work<>(sc.parallelize(List.of(3), 1).rdd(), failing));
        Exception e = assertThrows(Exception.class, () -> Jobs.eachPartitionOfEach(works, 2));
        assertTrue(String.valueOf(e.getMessage()).contains("partition 0 cannot be written"), e.getMessage());
    }

    /** The number of tasks of each job {@code body} runs. */
    private static List<Integer> tasksPerJob(Runnable body) throws Exception {
        List<Integer> tasks = Collections.synchronizedList(new ArrayList<>());
        SparkListener listener = new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart start) {
                int n = 0;
                for (var stages = start.stageInfos().iterator(); stages.hasNext(); ) {
                    n += stages.next().numTasks();
                }
                tasks.add(n);
            }
        };
        sc.sc().addSparkListener(listener);
        try {
            body.run();
            sc.sc().listenerBus().waitUntilEmpty();
        } finally {
            sc.sc().removeSparkListener(listener);
        }
        return List.copyOf(tasks);
    }

    @Test
    void countAndCollectRunOneTaskPerSlotInLocalModeWithTheSameResults() throws Exception {
        JavaRDD<Integer> six = sc.parallelize(List.of(1, 2, 3, 4, 5, 6, 7), 6);
        List<Object> results = new ArrayList<>();
        List<Integer> tasks = tasksPerJob(() -> {
            results.add(Jobs.count(six.rdd()));
            results.add(Jobs.collect(six));
            results.add(Jobs.count(sc.parallelize(List.of(1, 2, 3), 2).rdd())); // no more partitions than slots
            results.add(Jobs.count(sc.emptyRDD().rdd()));
        });
        assertEquals(List.of(7L, List.of(1, 2, 3, 4, 5, 6, 7), 3L, 0L), results, "counts and records in order");
        assertEquals(List.of(2, 2, 2, 0), tasks, "tasks per job on local[2]");
    }

    @Test
    void countPassesTheRecordsOwnExceptionOnUnchanged() {
        JavaRDD<Integer> failing = sc.parallelize(List.of(1, 2, 3, 4), 4).map(x -> {
            if (x == 3) {
                throw new IOException("record " + x + " cannot be read");
            }
            return x;
        });
        SparkException e = assertThrows(SparkException.class, () -> Jobs.count(failing.rdd()));
        assertTrue(e.getCause() instanceof IOException, "cause: " + e.getCause());
        assertEquals("record 3 cannot be read", e.getCause().getMessage());
    }
}
