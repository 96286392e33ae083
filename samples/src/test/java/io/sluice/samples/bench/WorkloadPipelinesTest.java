package io.sluice.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.SharedSpark;
import io.sluice.dstream.testing.SparkStreamingRun;
import io.sluice.testkit.StreamTester;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every batch workload's two pipelines give the same output batch for batch, on a scaled-down benchmark input
 * driven by manual clocks: the benchmark compares like with like.
 */
class WorkloadPipelinesTest {
    private static final int BATCHES = 3;

    @org.junit.jupiter.api.BeforeAll
    static void smallPreloadedState() {
        System.setProperty("bench.stateKeys", "2000");
    }

    @org.junit.jupiter.api.AfterAll
    static void defaultPreloadedState() {
        System.clearProperty("bench.stateKeys");
    }

    static Stream<BatchWorkload> batchWorkloads() {
        return Workloads.all().stream().filter(w -> w instanceof BatchWorkload).map(w -> (BatchWorkload) w);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("batchWorkloads")
    void sluiceAndSparkStreamingPipelinesAgree(BatchWorkload workload, @TempDir Path dir) throws Exception {
        long records = Math.min(workload.recordsPerBatch(), 4_000);
        int keys = Math.min(workload.keys(), 500);

        List<String> expected;
        BenchOutput.clear();
        try (SparkStreamingRun reference = new SparkStreamingRun(4)) {
            if (workload.needsCheckpointDirectory()) {
                // as in StandardRun: a queueStream's graph cannot be checkpointed, state RDDs can
                reference.context().sparkContext().setCheckpointDir(
                        Files.createDirectory(dir.resolve("spark")).toString());
            }
            workload.sparkStreaming(reference.context().queueStream(new ArrayDeque<>(input(records, keys)), true));
            reference.runBatches(BATCHES);
            expected = BenchOutput.first(BATCHES);
        }

        List<String> actual;
        BenchOutput.clear();
        try (StreamTester tester = new StreamTester()) {
            if (workload.needsCheckpointDirectory()) {
                tester.context().checkpoint(Files.createDirectory(dir.resolve("sluice")).toString());
            }
            workload.sluice(tester.context().queueStream(new ArrayDeque<>(input(records, keys)), true));
            tester.runBatches(BATCHES);
            actual = BenchOutput.first(BATCHES);
        }

        assertEquals(BATCHES, expected.size(), "Spark Streaming outputs");
        assertEquals(expected, actual, workload.id() + ": Sluice's outputs differ from Spark Streaming's");
    }

    private static List<JavaRDD<String>> input(long records, int keys) {
        return new ArrayList<>(BenchRecords.batches(SharedSpark.context(), BATCHES, 4, records, keys));
    }
}
