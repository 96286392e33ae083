package io.sluice.rdd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BatchTimeMapTest {
    private static BatchTimeMap<String> batches(long... times) {
        BatchTimeMap<String> map = new BatchTimeMap<>();
        for (long t : times) {
            map.put(new Time(t), "b" + t);
        }
        return map;
    }

    @Test
    void forgetThroughRemovesTheBatchesUpToAndIncludingATimeAndReturnsThemOldestFirst() {
        BatchTimeMap<String> map = batches(3000, 1000, 2000, 4000);
        Map<Time, String> removed = map.forgetThrough(new Time(2000));
        assertEquals(List.of(new Time(1000), new Time(2000)), List.copyOf(removed.keySet()));
        assertEquals(List.of("b1000", "b2000"), List.copyOf(removed.values()));
        assertEquals(List.of("b3000", "b4000"), List.copyOf(map.values()));
        assertEquals(Optional.empty(), map.get(new Time(2000)));
        assertTrue(map.forgetThrough(new Time(2500)).isEmpty(), "nothing left at or before 2500");
    }

    @Test
    void forgetBeforeKeepsTheBatchOfTheTimeItself() {
        BatchTimeMap<String> map = batches(1000, 2000, 3000);
        assertEquals(List.of("b1000"), List.copyOf(map.forgetBefore(new Time(2000)).values()));
        assertEquals(Optional.of("b2000"), map.get(new Time(2000)));
        assertEquals(2, map.size());
    }

    @Test
    void neighboursAreFoundByTime() {
        BatchTimeMap<String> map = batches(1000, 3000);
        assertEquals("b1000", map.atOrBefore(new Time(2999)).orElseThrow().getValue());
        assertEquals("b3000", map.atOrBefore(new Time(3000)).orElseThrow().getValue());
        assertEquals("b1000", map.before(new Time(3000)).orElseThrow().getValue());
        assertEquals(Optional.empty(), map.before(new Time(1000)));
        assertEquals("b3000", map.newest().orElseThrow().getValue());
        assertEquals(Optional.empty(), new BatchTimeMap<String>().newest());
    }

    @Test
    void removeAndComputeIfAbsentWorkOnOneBatch() {
        BatchTimeMap<String> map = batches(1000);
        assertEquals("b1000", map.computeIfAbsent(new Time(1000), t -> "other"));
        assertEquals("made 2000 ms", map.computeIfAbsent(new Time(2000), t -> "made " + t));
        assertEquals(Optional.of("b1000"), map.remove(new Time(1000)));
        assertEquals(Optional.empty(), map.remove(new Time(1000)));
        map.clear();
        assertTrue(map.isEmpty());
    }
}
