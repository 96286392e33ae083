package io.sluice.bench.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.flink.api.java.tuple.Tuple2;
import org.junit.jupiter.api.Test;

class W2RecordsTest {
    @Test
    void formulaAsWrittenInTheBenchmarkDefinition() {
        long golden = 0x9E3779B97F4A7C15L;
        assertEquals(0L, W2Records.mix(0, 0, 0));
        assertEquals(golden ^ (golden >>> 29), W2Records.mix(0, 0, 1));
        long x = (2 * 1_000_003L + 3 * 7_919L + 5) * golden;
        assertEquals(x ^ (x >>> 29), W2Records.mix(2, 3, 5));
    }

    @Test
    void positionsRunThroughBatchesThenPartitionsThenIndexes() {
        W2Records input = new W2Records(3, 40, 7);
        assertEquals(120, input.total());
        // batch 2, partition 3 (10 records per partition), index 5
        long x = W2Records.mix(2, 3, 5);
        assertEquals(Tuple2.of(2, "w" + Math.floorMod(x, 7)), input.at(2 * 40 + 3 * 10 + 5));
        assertEquals(Tuple2.of(0, "w0"), input.at(0));
    }

    @Test
    void refusesAnInputThatDoesNotSplitOverFourPartitions() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new W2Records(2, 10, 5));
        assertEquals("W2's input needs batches >= 1, records per batch a positive multiple of 4 and keys >= 1; got 2, "
                + "10, 5", e.getMessage());
    }
}
