package io.sluice.state.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.state.internal.StateFiguresAccumulator.PartitionFigures;
import io.sluice.state.internal.StateFiguresAccumulator.Totals;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The figures tasks report are a partition's, not increments: as Spark merges task copies into the driver's
 * accumulator, a retried task or a recomputed partition replaces its earlier report, and a batch's figures are
 * taken once. Also the figures of a real version: its keys, timeouts and an estimate that grows with the state.
 */
class StateFiguresAccumulatorTest {
    /** A task's copy, as Spark ships one: empty, one report added, then merged into the driver's. */
    private static void task(StateFiguresAccumulator driver, PartitionFigures figures) {
        StateFiguresAccumulator copy = driver.copy();
        copy.reset();
        copy.add(figures);
        driver.merge(copy);
    }

    @Test
    void aRetriedOrRecomputedPartitionIsCountedOnce() {
        StateFiguresAccumulator driver = new StateFiguresAccumulator();
        task(driver, new PartitionFigures(2000, 0, 10, 1000, 0, 1));
        task(driver, new PartitionFigures(2000, 1, 5, 500, 0, 0));
        task(driver, new PartitionFigures(2000, 0, 10, 1000, 0, 1)); // partition 0 recomputed
        task(driver, new PartitionFigures(3000, 0, 11, 1100, 0, 0)); // the next batch, still running
        assertEquals(Optional.of(new Totals(15, 1500, 0, 1, 2)), driver.take(2000));
        assertEquals(Optional.empty(), driver.take(2000), "a batch's figures are taken once");
        task(driver, new PartitionFigures(2000, 1, 5, 500, 0, 0)); // recomputed after its batch completed
        driver.forgetThrough(2000);
        assertEquals(Optional.empty(), driver.take(2000));
        assertEquals(Optional.of(new Totals(11, 1100, 0, 0, 1)), driver.take(3000));
        assertTrue(driver.isZero());
    }

    @Test
    void aVersionReportsItsKeysTimeoutsAndAnEstimateThatGrowsWithIt() throws Exception {
        MapWithStateTransition<String, Integer, Integer, String> transition = new MapWithStateTransition<>(
                (time, key, value, state) -> {
                    if (!state.isTimingOut()) {
                        state.update(value.get());
                    }
                    return MappingFunction.NONE;
                }, 2000, "test");
        StateVersion<String, Integer> v = HeapStateVersion.empty(1000, true);
        java.util.List<scala.Tuple2<String, Integer>> many = new java.util.ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            many.add(new scala.Tuple2<>("key-" + i, i));
        }
        StateVersion<String, Integer> one = transition.apply(v, java.util.List.of(new scala.Tuple2<>("a", 1))
                .iterator(), 1000).state();
        StateVersion<String, Integer> big = transition.apply(one, many.iterator(), 2000).state();
        PartitionFigures small = PartitionFigures.of(1000, 0, one);
        PartitionFigures large = PartitionFigures.of(2000, 0, big);
        assertEquals(1, small.keys());
        assertEquals(10_001, large.keys());
        assertTrue(large.bytes() > 10_000 * 20L, "10,001 keys with boxed values take more than 200 KB: "
                + large.bytes());
        assertTrue(small.bytes() < large.bytes() / 100, small.bytes() + " vs " + large.bytes());
        StateVersion<String, Integer> later = transition.apply(big, java.util.Collections.emptyIterator(), 4000)
                .state(); // "a", updated at 1000, is idle for more than 2 s
        assertEquals(1, PartitionFigures.of(4000, 0, later).timedOut());
        assertEquals(10_000, later.size());
        StateVersion<String, Integer> last = transition.apply(later, java.util.Collections.emptyIterator(), 5000)
                .state();
        assertEquals(10_000, last.timedOut());
        assertEquals(0, last.size());
    }
}
