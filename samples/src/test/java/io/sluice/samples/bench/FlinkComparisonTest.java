package io.sluice.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SharedSpark;
import io.sluice.testkit.StreamTester;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * W2f's and W2r's two sides on a scaled-down input: Sluice's W2 in this JVM on manual clocks, Flink in a JVM of its
 * own on samples/flink's class path, as the benchmark runs it. Both must report the same per-batch counts, keys and
 * sum of running counts. (W2r's Sluice side here runs on the shared test context's backend: its {@code
 * sluice.state.backend} setting only reaches a context the benchmark builds.)
 */
class FlinkComparisonTest {
    private static final int BATCHES = 3;
    private static final long RECORDS = 4_000;
    private static final int KEYS = 500;

    @ParameterizedTest
    @ValueSource(strings = {"W2f", "W2r"})
    void sluiceAndFlinkCountTheSameRecordsPerBatchKeysAndRunningCounts(String id, @TempDir Path dir) throws Exception {
        FlinkComparison workload = (FlinkComparison) Workloads.byId(id);
        assertEquals(workload.backend(), workload.sluiceSide().sparkSettings().get("sluice.state.backend"));

        FlinkComparison.SluiceSide sluice = workload.sluiceSide();
        try (StreamTester tester = new StreamTester()) {
            tester.context().checkpoint(dir.resolve("checkpoints").toString());
            sluice.sluice(tester.context().queueStream(new ArrayDeque<>(
                    BenchRecords.batches(SharedSpark.context(), BATCHES, 4, RECORDS, KEYS)), true));
            tester.runBatches(BATCHES);
            sluice.afterBatches();
        }
        RunningCountCheck expected = sluice.check(BATCHES);
        assertEquals(List.of(RECORDS, RECORDS, RECORDS), expected.recordsPerBatch());

        Measurement flink = runFlink(workload.flinkMainAndArguments(BATCHES, RECORDS, KEYS, 1));
        assertEquals(expected.toString(), flink.outputDigest(), id + ": Flink's running counts differ from Sluice's");
        assertTrue(flink.value() > 0, flink.toString());
        assertTrue(flink.detail().contains(workload.backend().equals("heap") ? "HeapValueState" : "RocksDBValueState"),
                flink.detail());
    }

    /** The Flink side as the benchmark forks it (a smaller heap): its measurement line, or a failure with its output. */
    private static Measurement runFlink(List<String> mainAndArguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m"));
        command.addAll(mainAndArguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        Measurement result = null;
        StringBuilder output = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                output.append(line).append('\n');
                Measurement m = Measurement.parse(line);
                result = m != null ? m : result;
            }
        }
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the Flink JVM did not end:\n" + output);
        assertEquals(0, process.exitValue(), "the Flink JVM failed:\n" + output);
        assertNotNull(result, "no measurement from the Flink JVM:\n" + output);
        return result;
    }
}
