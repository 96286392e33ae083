package io.sluice.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadsTest {
    @Test
    void idsAreUniqueAndBatchInputSplitsEvenlyOverFourPartitions() {
        Set<String> ids = new HashSet<>();
        List<Workload> all = new ArrayList<>(Workloads.all());
        Workloads.all().forEach(w -> all.addAll(w.steps()));
        for (Workload w : all) {
            assertTrue(ids.add(w.id().toLowerCase()), "duplicate id " + w.id());
            if (w instanceof BatchWorkload b) {
                assertEquals(0, b.recordsPerBatch() % BenchSettings.STANDARD.inputPartitions(), w.id());
            }
        }
        assertTrue(ids.containsAll(List.of("w0", "w1", "w2f", "w2r", "w7a", "w7a-100k", "w7a-1m", "w7b", "w7b-1", "w7b-2",
                "w8", "w8-rocksdb", "w8-heap", "rp", "rp-wall", "rp-ff")), ids.toString());
    }

    @Test
    void findsTheStepsOfAScalingWorkloadByIdForItsForkedJvms() {
        ScalingWorkload growth = (ScalingWorkload) Workloads.byId("W7a");
        assertEquals(List.of("W7a-100k", "W7a-500k", "W7a-1M"), growth.steps().stream().map(Workload::id).toList());
        BatchWorkload largest = (BatchWorkload) Workloads.byId("w7a-1m");
        assertEquals(1_000_000, largest.keys());
        assertEquals(10_000, largest.recordsPerBatch());
        BatchWorkload twoExecutors = (BatchWorkload) Workloads.byId("W7b-2");
        assertEquals("local-cluster[2,1,1024]", twoExecutors.sparkSettings().get("spark.master"));
        assertEquals(((BatchWorkload) Workloads.byId("W2")).keys(), twoExecutors.keys());
        assertEquals(List.of("W7a", "W7b", "R1"), Workloads.select("W7a,W7b,R1").stream().map(Workload::id).toList());
        LargeStateRun w8OnRocksDb = (LargeStateRun) Workloads.byId("w8-rocksdb");
        assertEquals(20_000_000, w8OnRocksDb.keys());
        assertEquals(1_000_000, w8OnRocksDb.recordsPerBatch());
        assertEquals("mapWithState filling 20,000,000 keys on rocksdb state, 1 GB heap", w8OnRocksDb.description());
        assertTrue(Workloads.byId("W8").standard());
        assertFalse(new LargeStateWorkload(new LargeStateInput(400_000, 100_000, 5)).standard());
    }

    @Test
    void theReplayRowComparesFastForwardWithTheWallClockAgainstAHundredfoldTarget() {
        ScalingWorkload replay = (ScalingWorkload) Workloads.byId("RP");
        assertEquals(List.of("RP-wall", "RP-ff"), replay.steps().stream().map(Workload::id).toList());
        Row row = replay.row(List.of(new Measurement(0.98, "-", ""), new Measurement(49, "-", "")));
        assertEquals(50.0, row.ratio(), 1e-9);
        assertEquals("FAIL", row.result());
        assertEquals("pass", replay.row(List.of(new Measurement(1, "-", ""), new Measurement(100, "-", ""))).result());
        assertEquals("wall clock 1.0 batches/s, fast-forward 100 batches/s",
                replay.row(List.of(new Measurement(1, "-", ""), new Measurement(100, "-", ""))).sluice().detail());
    }

    @Test
    void aRowAgainstFlinkNamesFlinkAndFailsWhenItsRunningCountsDiffer() {
        Workload w2f = Workloads.byId("W2f");
        assertEquals(Side.FLINK, w2f.baseline());
        assertEquals(Side.SPARK_STREAMING, Workloads.byId("W2").baseline());
        String check = "records per batch 400000 400000, keys 199000, sum of running counts 1234";
        Row row = new Row(w2f, new Measurement(2_400_000, check, ""), new Measurement(1_500_000, check, ""));
        assertEquals("Flink 2.3.0: 1,500 k records/s", row.cells()[4]);
        assertEquals("pass", row.result());
        assertEquals("FAIL (outputs differ)", new Row(w2f, new Measurement(2_400_000, check, ""),
                new Measurement(1_500_000, check.replace("1234", "1233"), "")).result());
        assertEquals("FAIL", new Row(Workloads.byId("W2r"), new Measurement(400_000, check, ""),
                new Measurement(250_000, check, "")).result());
    }

    @Test
    void selectsTheListedWorkloadsInOrderOrAll() {
        assertEquals(List.of("W1", "W0"), Workloads.select(" w1, W0,W1").stream().map(Workload::id).toList());
        assertEquals(Workloads.all(), Workloads.select(""));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Workloads.select("W9"));
        assertTrue(e.getMessage().contains("W0"), e.getMessage());
    }

    @Test
    void targetsPointTheRightWay() {
        assertTrue(Figure.THROUGHPUT.passes(1.5, 1.5));
        assertFalse(Figure.THROUGHPUT.passes(1.4, 1.5));
        assertTrue(Figure.MS_PER_BATCH.passes(0.4, 0.5));
        assertFalse(Figure.MS_PER_BATCH.passes(0.6, 0.5));
    }

    @Test
    void measurementsSurviveTheTripThroughAForkedJvmsOutput() {
        Measurement m = new Measurement(812_345.5, "16 outputs, sha256 00ff", "median 492.0 ms over 14 batches [1, 2]");
        assertEquals(m.value(), Measurement.parse(m.toLine()).value(), 1e-6);
        assertEquals(m.outputDigest(), Measurement.parse(m.toLine()).outputDigest());
        assertEquals(m.detail(), Measurement.parse(m.toLine()).detail());
        assertEquals(null, Measurement.parse("12:00:01 WARN something"));
    }

    @Test
    void reportReplacesMeasuredRowsAndKeepsOthersAndNotes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("docs/performance.md");
        Workload w0 = Workloads.byId("W0");
        Workload w1 = Workloads.byId("W1");
        Machine machine = new Machine(2, "Test CPU", "17", "2026-01-01 00:00 UTC", "0.5");
        PerformanceReport.update(file, List.of(
                new Row(w0, new Measurement(6, "d", ""), new Measurement(60, "d", "")),
                new Row(w1, new Measurement(900_000, "d", ""), new Measurement(600_000, "d", ""))), machine);
        Files.writeString(file, Files.readString(file) + "Hand-written note.\n");
        PerformanceReport.update(file, List.of(
                new Row(w1, new Measurement(300_000, "d", ""), new Measurement(600_000, "e", ""))), machine);
        String text = Files.readString(file);
        assertTrue(text.contains("| W0 | " + w0.description() + " | median ms per batch | 6.0 ms | 60.0 ms | 0.10× | ≤ 0.15× | pass |"), text);
        assertTrue(text.contains("| W1 | " + w1.description() + " | throughput | 300 k records/s | 600 k records/s | 0.50× | ≥ 3.0× | FAIL (outputs differ) |"), text);
        assertFalse(text.contains("900 k"), text);
        assertTrue(text.indexOf("| W0 |") < text.indexOf("| W1 |"), text);
        assertTrue(text.endsWith("## Notes\nHand-written note.\n"), text);
    }

    @Test
    void aScalingRowIsTheLastStepOverTheFirstWithoutASparkStreamingSide(@TempDir Path dir) throws Exception {
        ScalingWorkload growth = (ScalingWorkload) Workloads.byId("W7a");
        Row row = growth.row(List.of(new Measurement(70, "a", ""), new Measurement(72, "b", ""),
                new Measurement(77, "c", "")));
        assertEquals(1.1, row.ratio(), 1e-9);
        assertEquals("pass", row.result());
        ScalingWorkload scaleOut = (ScalingWorkload) Workloads.byId("W7b");
        Row slow = scaleOut.measure(step -> new Measurement(step.id().equals("W7b-1") ? 1_000_000 : 1_500_000, "d", ""));
        assertEquals("FAIL", slow.result());

        Path file = dir.resolve("performance.md");
        PerformanceReport.update(file, List.of(row, slow), new Machine(2, "Test CPU", "17", "2026-01-01 00:00 UTC", "0.5"));
        String text = Files.readString(file);
        assertTrue(text.contains("| W7a | " + growth.description() + " | median ms per batch; ratio 1M / 100k keys | "
                + "100k keys 70.0 ms, 500k keys 72.0 ms, 1M keys 77.0 ms | – | 1.10× | ≤ 1.2× | pass |"), text);
        assertTrue(text.contains("| 1 executor 1,000 k records/s, 2 executors 1,500 k records/s | – | 1.50× | ≥ 1.7× | FAIL |"), text);
    }
}
