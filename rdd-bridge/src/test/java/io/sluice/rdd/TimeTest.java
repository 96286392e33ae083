package io.sluice.rdd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Programs write batch times into their output files, so the text is Spark Streaming's: {@code <ms> ms}. */
class TimeTest {

    @Test
    void printsAsSparkStreamingsTime() {
        assertEquals("1733318400000 ms", new Time(1_733_318_400_000L).toString());
        assertEquals("0 ms", new Time(0).toString());
        assertEquals("-1000 ms", new Time(-1000).toString());
        assertEquals("Batch 2000 ms", "Batch " + Time.ofMillis(2000));
    }
}
