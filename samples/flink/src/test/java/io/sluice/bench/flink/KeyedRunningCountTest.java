package io.sluice.bench.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.java.tuple.Tuple2;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class KeyedRunningCountTest {
    private static final W2Records INPUT = new W2Records(3, 4_000, 500);

    @ParameterizedTest
    @EnumSource(StateBackend.class)
    void countsEveryRecordOfEveryBatchOnceAndEmitsOneToNPerKey(StateBackend backend, @TempDir Path work)
            throws Exception {
        KeyedRunningCount.Run run;
        try (KeyedRunningCount counting = new KeyedRunningCount(backend, work)) {
            run = counting.run(INPUT);
        }

        assertEquals(expectedCheck(INPUT), run.check(), backend + " state");
        assertEquals(12_000, run.records());
        assertTrue(run.processingNanos() > 0, "processing time " + run.processingNanos());
        assertEquals(backend == StateBackend.ROCKSDB ? "RocksDBValueState" : "HeapValueState", run.stateClass());
    }

    @Test
    void theMeasurementIsTheBestRepetitionOfRunsThatAllAgree() throws Exception {
        String line = FlinkSide.measure(StateBackend.HEAP, INPUT, 2);

        String[] parts = line.split("\t");
        assertEquals("BENCH-RESULT", parts[0]);
        assertTrue(Double.parseDouble(parts[1]) > 0, line);
        assertEquals(expectedCheck(INPUT), parts[2]);
        assertTrue(parts[3].contains("best of 2 repetitions"), parts[3]);
    }

    /** The same figures from a plain loop over the same records. */
    private static String expectedCheck(W2Records input) {
        Map<String, Long> counts = new HashMap<>();
        long[] perBatch = new long[input.batches()];
        for (long n = 0; n < input.total(); n++) {
            Tuple2<Integer, String> record = input.at(n);
            perBatch[record.f0]++;
            counts.merge(record.f1, 1L, Long::sum);
        }
        long sum = counts.values().stream().mapToLong(c -> c * (c + 1) / 2).sum();
        StringBuilder batches = new StringBuilder();
        for (long b : perBatch) {
            batches.append(batches.length() == 0 ? "" : " ").append(b);
        }
        return "records per batch " + batches + ", keys " + counts.size() + ", sum of running counts " + sum;
    }
}
