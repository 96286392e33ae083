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
    void emptyStaysEmpty() {
        assertEquals(List.of(), new EmittedRecords<Long>().trimmed());
    }
}
