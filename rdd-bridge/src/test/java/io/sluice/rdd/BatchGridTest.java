package io.sluice.rdd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchGridTest {
    private final BatchGrid grid = new BatchGrid(new Time(1_000), Duration.ofMillis(500));

    @Test
    void batchTimesAreWholeStepsAfterZero() {
        assertFalse(grid.contains(new Time(1_000)), "zero itself is no batch");
        assertTrue(grid.isOnGrid(new Time(1_000)));
        assertTrue(grid.contains(new Time(1_500)));
        assertTrue(grid.contains(new Time(3_000)));
        assertFalse(grid.contains(new Time(1_250)));
        assertFalse(grid.contains(new Time(500)), "before zero");
        assertFalse(grid.isOnGrid(new Time(500)));
        assertEquals(new Time(1_500), grid.first());
    }

    @Test
    void floorAndNextCountFromZeroNotFromTheEpoch() {
        BatchGrid odd = new BatchGrid(new Time(100), Duration.ofMillis(300));
        assertEquals(new Time(400), odd.floor(new Time(699)));
        assertEquals(new Time(700), odd.floor(new Time(700)));
        assertEquals(new Time(-200), odd.floor(new Time(-1)));
        assertEquals(new Time(1_000), odd.next(new Time(700)));
        assertEquals(new Time(700), odd.next(new Time(699)));
    }

    @Test
    void betweenListsTheBatchesOfAHalfOpenInterval() {
        assertEquals(List.of(new Time(1_500), new Time(2_000), new Time(2_500)),
                grid.between(new Time(1_000), new Time(2_500)));
        assertEquals(List.of(new Time(2_000)), grid.between(new Time(1_700), new Time(2_400)));
        assertEquals(List.of(), grid.between(new Time(2_500), new Time(2_500)));
    }

    @Test
    void timesFromIncludesBothEndsOnTheGrid() {
        assertEquals(List.of(new Time(1_000), new Time(1_500), new Time(2_000)),
                grid.timesFrom(new Time(1_000), new Time(2_000)));
        assertEquals(List.of(new Time(1_500)), grid.timesFrom(new Time(1_100), new Time(1_999)));
        assertEquals(List.of(), grid.timesFrom(new Time(2_001), new Time(2_499)));
    }

    @Test
    void theBatchHoldingAnInstantIsTheFirstGridTimeAtOrAfterIt() {
        BatchGrid epoch = BatchGrid.ofEpoch(Duration.ofSeconds(1));
        assertEquals(new Time(2_000), epoch.batchHolding(new Time(1_001)));
        assertEquals(new Time(2_000), epoch.batchHolding(new Time(2_000)), "a batch holds its own time");
        assertEquals(new Time(0), epoch.batchHolding(new Time(-999)));
        assertEquals(new Time(1_500), grid.batchHolding(new Time(1_250)));
    }

    @Test
    void stepsFromZeroNumberTheBatches() {
        assertEquals(0, grid.stepsFromZero(new Time(1_000)));
        assertEquals(3, grid.stepsFromZero(new Time(2_500)));
        assertEquals(3, grid.stepsFromZero(new Time(2_999)), "a time between batches counts the one before it");
        assertEquals(-1, grid.stepsFromZero(new Time(999)));
        BatchGrid epoch = BatchGrid.ofEpoch(Duration.ofSeconds(1));
        assertEquals(1_733_318_400L, epoch.stepsFromZero(new Time(1_733_318_400_000L)));
    }

    @Test
    void aFreshStartFloorsNowOntoTheEpochGrid() {
        BatchGrid start = BatchGrid.startingAt(new Time(10_250), Duration.ofSeconds(1));
        assertEquals(new Time(10_000), start.zero());
        assertEquals(new Time(11_000), start.first());
        assertEquals(new BatchGrid(new Time(10_000), Duration.ofMillis(200)), start.withStep(Duration.ofMillis(200)));
    }

    @Test
    void stepsMustBeWholePositiveMilliseconds() {
        assertThrows(IllegalArgumentException.class, () -> new BatchGrid(new Time(0), Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new BatchGrid(new Time(0), Duration.ofNanos(1_500_000)));
        assertThrows(IllegalArgumentException.class, () -> new BatchGrid(null, Duration.ofSeconds(1)));
        assertTrue(BatchGrid.isMultiple(Duration.ofSeconds(3), Duration.ofMillis(1_500)));
        assertFalse(BatchGrid.isMultiple(Duration.ofSeconds(3), Duration.ZERO));
    }
    @Test
    void timesFloorAndMultiplesAreSparkStreamingsOnTheEpochsGrid() {
        assertEquals(new Time(2000), new Time(2500).floor(java.time.Duration.ofSeconds(1)));
        assertEquals(new Time(3000), new Time(3000).floor(java.time.Duration.ofSeconds(1)));
        assertEquals(true, new Time(3000).isMultipleOf(java.time.Duration.ofMillis(500)));
        assertEquals(false, new Time(3200).isMultipleOf(java.time.Duration.ofMillis(500)));
    }
}
