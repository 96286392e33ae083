package io.sluice.dstream.internal.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.rdd.ExecutorLocation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Partition i goes to the i-th executor by id (numerically), modulo their number; none named: Spark decides. */
class StatePlacementTest {
    @Test
    void spreadsPartitionsOverTheExecutorsInIdOrder() {
        StatePlacement placement = new StatePlacement();
        assertEquals(List.of(), placement.locations(0, 4), "no executors named: Spark's default");
        placement.placeOn(List.of(new ExecutorLocation("h2", "10"), new ExecutorLocation("h1", "9"),
                new ExecutorLocation("h1", "2")));
        assertEquals(List.of("2", "9", "10"), placement.executors().stream().map(ExecutorLocation::executorId).toList());
        assertEquals(List.of("executor_h1_2"), placement.locations(0, 4));
        assertEquals(List.of("executor_h1_9"), placement.locations(1, 4));
        assertEquals(List.of("executor_h2_10"), placement.locations(2, 4));
        assertEquals(List.of("executor_h1_2"), placement.locations(3, 4));
        placement.placeOn(List.of());
        assertEquals(List.of(), placement.locations(1, 4));
    }
}
