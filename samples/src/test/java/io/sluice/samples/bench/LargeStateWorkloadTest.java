package io.sluice.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.testkit.SharedSpark;
import io.sluice.testkit.StreamTester;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** W8 at a small scale: its input, its pipeline's final state and figures, and how its row reports heap's failure. */
class LargeStateWorkloadTest {
    private static final LargeStateInput SHAPE = new LargeStateInput(2_000, 400, 2);

    @Test
    void fillBatchesBringEachKeyOnceThenSteadyBatchesHitOnlyExistingKeys() {
        List<JavaRDD<String>> batches = SHAPE.batches(SharedSpark.context());
        assertEquals(7, batches.size());
        Set<String> seen = new HashSet<>();
        for (int b = 0; b < SHAPE.fillBatches(); b++) {
            List<String> keys = batches.get(b).collect();
            assertEquals(400, keys.size(), "fill batch " + b);
            for (String k : keys) {
                assertTrue(seen.add(k), "key " + k + " again in fill batch " + b);
            }
            assertTrue(keys.contains("w" + (b * 400)) && keys.contains("w" + (b * 400 + 399)), "fill batch " + b);
        }
        assertEquals(2_000, seen.size());
        for (int b = SHAPE.fillBatches(); b < 7; b++) {
            List<String> records = batches.get(b).collect();
            assertEquals(400, records.size());
            assertTrue(seen.containsAll(records), "steady batch " + b + " brought a new key");
        }
        assertEquals(2_800, SHAPE.records());
    }

    @Test
    void theLastFillBatchTakesTheKeysLeft() {
        LargeStateInput uneven = new LargeStateInput(1_000, 400, 1);
        assertEquals(3, uneven.fillBatches());
        assertEquals(List.of("w800", "w999"), List.of(uneven.batches(SharedSpark.context()).get(2).collect().get(0),
                uneven.batches(SharedSpark.context()).get(2).collect().get(199)));
        assertEquals(1_400, uneven.records());
    }

    @Test
    void theRunCountsEveryRecordInStateAndReportsItsFigures(@TempDir Path dir) throws Exception {
        LargeStateRun run = new LargeStateRun("W8-heap", "heap", SHAPE);
        List<Long> times = new ArrayList<>();
        LargeStateRun.Footprint footprint;
        try (StreamTester tester = new StreamTester()) {
            tester.context().checkpoint(dir.resolve("checkpoints").toString());
            run.sluice(tester.context().queueStream(new ArrayDeque<>(SHAPE.batches(SharedSpark.context())), true));
            for (BatchInfo info : tester.runBatches(SHAPE.batches())) {
                times.add(info.processingDelay());
            }
            Path local = Files.createDirectories(dir.resolve("local/rocksdb-part-0"));
            Files.write(local.resolve("000012.sst"), new byte[3_000]);
            Files.write(local.resolve("000013.log"), new byte[1_000]);
            Files.write(local.resolve("shuffle_0_0_0.data"), new byte[50_000]);
            footprint = run.footprint(dir.resolve("local"));
        }

        assertEquals(new LargeStateRun.Footprint(2_000, 2_800, 4_000, footprint.checkpointBytes()), footprint);
        assertTrue(footprint.checkpointBytes() > 0, "nothing in the checkpoint directory");
        Measurement m = run.measurement(times, footprint);
        assertEquals(1.0, m.value());
        assertTrue(m.detail().startsWith("2,000 keys: filling "), m.detail());
        assertTrue(m.detail().contains("median of 2 batches of 400 records), 2.0 bytes/key on disk (RocksDB), "
                + String.format(java.util.Locale.ROOT, "%.1f", footprint.checkpointBytes() / 2_000.0)
                + " bytes/key in checkpoints"), m.detail());

        IllegalStateException lost = assertThrows(IllegalStateException.class, () -> run.measurement(times,
                new LargeStateRun.Footprint(1_999, 2_799, 0, 0)));
        assertEquals("W8-heap: the final state counts 2,799 records over 1,999 keys, the input had 2,800",
                lost.getMessage());
    }

    @Test
    void theRowGivesRocksDbsFiguresAndSaysHeapFailsWithItsReason(@TempDir Path dir) throws Exception {
        LargeStateWorkload w8 = new LargeStateWorkload(SHAPE);
        assertEquals(List.of("W8-rocksdb", "W8-heap"), w8.steps().stream().map(Workload::id).toList());
        assertEquals(List.of("-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"), w8.steps().get(0).heapFlags());
        List<Duration> limits = new ArrayList<>();
        Row row = w8.measure((step, limit) -> {
            limits.add(limit);
            return step.id().equals("W8-rocksdb")
                    ? new Forked(new Measurement(1.0, "-", "2,000 keys: filling 300 k records/s"), null, 400, dir)
                    : new Forked(null, "OutOfMemoryError: Java heap space", 90, dir);
        }, BenchSettings.STANDARD);

        assertEquals(List.of(Duration.ofMinutes(30), Duration.ofSeconds(800)), limits);
        assertEquals("rocksdb: 2,000 keys: filling 300 k records/s; heap: fails (OutOfMemoryError: Java heap space)",
                row.cells()[3]);
        assertEquals("pass", row.result());

        Row rocksDbFailed = w8.measure((step, limit) -> new Forked(null, "did not finish within 1800 s", 1800, dir),
                BenchSettings.STANDARD);
        assertEquals("rocksdb: fails (did not finish within 1800 s); heap: fails (did not finish within 1800 s)",
                rocksDbFailed.cells()[3]);
        assertEquals("FAIL", rocksDbFailed.result());
    }

    @Test
    void aFailedSidesReasonIsItsOutOfMemoryErrorElseItsLastException(@TempDir Path dir) throws Exception {
        Path oom = Files.writeString(dir.resolve("oom.log"), String.join("\n",
                "26/12/07 03:12:01 ERROR Executor: Exception in task 1.0 in stage 40.0 (TID 160)",
                "java.lang.OutOfMemoryError: Java heap space",
                "\tat java.base/java.util.HashMap.resize(HashMap.java:702)",
                "java.lang.IllegalStateException: a batch failed: Job aborted"));
        assertEquals("OutOfMemoryError: Java heap space", Forked.failureIn(oom, 52));

        Path sluice = Files.writeString(dir.resolve("sluice.log"), String.join("\n",
                "java.lang.IllegalStateException: a batch failed: batch 1765076400000 ms",
                "\tat io.sluice.samples.bench.BatchTimes.await(BatchTimes.java:39)",
                "Caused by: io.sluice.dstream.internal.OperatorException: mapWithState 'counts' at batch 1765076400000 ms:"
                        + " state exceeds the heap; set sluice.state.backend=rocksdb"));
        assertEquals("io.sluice.dstream.internal.OperatorException: mapWithState 'counts' at batch 1765076400000 ms:"
                + " state exceeds the heap; set sluice.state.backend=rocksdb", Forked.failureIn(sluice, 1));

        assertEquals("exit 137 without a measurement", Forked.failureIn(Files.writeString(dir.resolve("empty.log"),
                "started\n"), 137));
    }

    @Test
    void theReasonSideRunnerPrintedWinsOverExceptionsTasksLogAfterIt(@TempDir Path dir) throws Exception {
        String reason = Forked.innermost("foreachRDD at LargeStateRun.java:112 failed at batch 3000 ms: "
                + "java.lang.IllegalStateException: computing the values of count failed: "
                + "org.apache.spark.SparkException: Job aborted due to stage failure: Lost task 0.0 (TID 6): "
                + "java.lang.IllegalStateException: mapWithState at W.java:66: the state of partition 0 holds about "
                + "51 MB; keep it on local disk with sluice.state.backend=rocksdb\nDriver stacktrace:\n\tat x.y(Z.java:1)");
        assertEquals("IllegalStateException: mapWithState at W.java:66: the state of partition 0 holds about 51 MB; "
                + "keep it on local disk with sluice.state.backend=rocksdb", reason);

        Path log = Files.writeString(dir.resolve("stopping.log"), String.join("\n",
                "java.lang.IllegalStateException: a batch failed: batch 3000 ms: " + reason,
                Forked.FAILED + "a batch failed: batch 3000 ms: " + reason,
                "26/12/07 17:48:45 WARN BlockManager: Putting block rdd_76_1 failed due to exception "
                        + "java.lang.NullPointerException: Cannot invoke \"SparkEnv.memoryManager()\""));
        assertEquals("a batch failed: batch 3000 ms: " + reason, Forked.failureIn(log, 1));
    }
}
