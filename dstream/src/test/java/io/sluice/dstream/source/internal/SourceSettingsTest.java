package io.sluice.dstream.source.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The block interval a receiver cuts blocks at, set or not, for a context's batch interval. */
class SourceSettingsTest {
    private static Duration blockInterval(Map<String, String> conf, long batchMillis) {
        return SourceSettings.from(conf::get, Duration.ofMillis(batchMillis)).blockInterval();
    }

    @Test
    void unsetItIsHalfTheBatchIntervalUpToSparksTwoHundredMilliseconds() {
        assertEquals(Duration.ofMillis(200), blockInterval(Map.of(), 1000));
        assertEquals(Duration.ofMillis(200), blockInterval(Map.of(), 400));
        assertEquals(Duration.ofMillis(125), blockInterval(Map.of(), 250));
        assertEquals(Duration.ofMillis(50), blockInterval(Map.of(), 100));
        assertEquals(Duration.ofMillis(12), blockInterval(Map.of(), 25));
        assertEquals(Duration.ofMillis(200), blockInterval(Map.of(), 1), "a batch too short to halve");
    }

    @Test
    void aSetIntervalIsKeptWhetherSetAsSluicesKeyOrSparkStreamings() {
        assertEquals(Duration.ofMillis(300), blockInterval(Map.of(SourceSettings.BLOCK_INTERVAL, "300ms"), 100));
        assertEquals(Duration.ofMillis(80), blockInterval(Map.of("spark.streaming.blockInterval", "80ms"), 1000));
    }
}
