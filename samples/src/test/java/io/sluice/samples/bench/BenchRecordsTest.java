package io.sluice.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.source.internal.WordRecords;
import io.sluice.testkit.SharedSpark;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;

class BenchRecordsTest {
    @Test
    void formulaIsTheEngineGeneratorsMixWithSeedZero() {
        long[] batches = {0, 1, 15, 1_000_003, Long.MAX_VALUE / 3};
        for (long b : batches) {
            for (int p = 0; p < 4; p++) {
                for (long i : new long[] {0, 1, 99_999, 1L << 40}) {
                    assertEquals(WordRecords.mix(b, p, i, 0), BenchRecords.mix(b, p, i), b + "/" + p + "/" + i);
                    assertEquals(WordRecords.word(b, p, i, 200_000, 0), BenchRecords.word(b, p, i, 200_000));
                }
            }
        }
    }

    @Test
    void formulaAsWrittenInBenchmarksMd() {
        long golden = 0x9E3779B97F4A7C15L;
        assertEquals(0L, BenchRecords.mix(0, 0, 0));
        assertEquals(golden ^ (golden >>> 29), BenchRecords.mix(0, 0, 1));
        long x = (2 * 1_000_003L + 3 * 7_919L + 5) * golden;
        assertEquals(x ^ (x >>> 29), BenchRecords.mix(2, 3, 5));
        // floorMod keeps words in range for negative x.
        assertEquals("w" + Math.floorMod(x ^ (x >>> 29), 7), BenchRecords.word(2, 3, 5, 7));
    }

    @Test
    void eachBatchIsOneRddOfEqualPartitionsWithTheSameRecordsEveryTime() {
        List<JavaRDD<String>> batches = BenchRecords.batches(SharedSpark.context(), 2, 4, 40, 5);
        assertEquals(2, batches.size());
        List<List<String>> partitions = batches.get(1).glom().collect();
        assertEquals(4, partitions.size());
        for (int p = 0; p < 4; p++) {
            assertEquals(10, partitions.get(p).size());
            for (int i = 0; i < 10; i++) {
                assertEquals(BenchRecords.word(1, p, i, 5), partitions.get(p).get(i));
            }
        }
        assertEquals(batches.get(1).collect(), BenchRecords.batches(SharedSpark.context(), 2, 4, 40, 5).get(1).collect());
    }
}
