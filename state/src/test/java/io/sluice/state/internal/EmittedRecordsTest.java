package io.sluice.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class EmittedRecordsTest {
    @Test
    void keepsOrderThroughTheSwitchFromUnboxedToObjects() {
        EmittedRecords<Object> records = new EmittedRecords<>();
        List<Object> expected = new ArrayList<>();
        for (long i = 0; i < 100; i++) {
            records.add(i);
            expected.add(i);
        }
        assertEquals(expected, records);
        records.add("text");
        records.add(null);
        expected.addAll(Arrays.asList("text", null));
        assertEquals(expected, records.trimmed());
        assertEquals(102, records.size());
    }

    @Test
    void keepsOrderAcrossChunksBoxingAndAddsAfterTrimming() {
        EmittedRecords<Object> records = new EmittedRecords<>();
        List<Object> expected = new ArrayList<>();
        int n = 3 * EmittedRecords.CHUNK + 5;
        for (long i = 0; i < n; i++) {
            records.add(i * 7);
            expected.add(i * 7);
        }
        assertEquals(expected, records.trimmed());
        records.add(-1L); // after trimming, the last chunk grows again
        expected.add(-1L);
        assertEquals(expected, records);
        records.add("boxed in chunk 3");
        expected.add("boxed in chunk 3");
        for (long i = 0; i < EmittedRecords.CHUNK; i++) {
            records.add(i);
            expected.add(i);
        }
        assertEquals(expected, records.trimmed());
        assertEquals(n + 2 + EmittedRecords.CHUNK, records.size());
    }

    @Test
    void emptyStaysEmpty() {
        assertEquals(List.of(), new EmittedRecords<Long>().trimmed());
    }
}
