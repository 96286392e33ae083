package io.sluice.dstream.internal.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.rdd.ExecutorLocation;
import io.sluice.state.internal.StateRDD;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Partition i goes to the i-th executor by id (numerically), modulo their number: the live executors unless the
 * autoscaler names some; none (local mode): Spark decides. A batch keeps the placement it was made with.
 */
class StatePlacementTest {
    private static final ExecutorLocation E2 = new ExecutorLocation("h1", "2");
    private static final ExecutorLocation E9 = new ExecutorLocation("h1", "9");
    private static final ExecutorLocation E10 = new ExecutorLocation("h2", "10");

    @Test
    void spreadsPartitionsOverTheLiveExecutorsInIdOrder() {
        List<ExecutorLocation> live = new ArrayList<>();
        StatePlacement placement = new StatePlacement(() -> List.copyOf(live));
        assertEquals(List.of(), placement.forBatch().locations(0, 4), "no executors (local mode): Spark's default");
        live.addAll(List.of(E10, E9, E2));
        StateRDD.Placement batch = placement.forBatch();
        assertEquals(List.of(E2, E9, E10), placement.executors());
        assertEquals(List.of("executor_h1_2"), batch.locations(0, 4));
        assertEquals(List.of("executor_h1_9"), batch.locations(1, 4));
        assertEquals(List.of("executor_h2_10"), batch.locations(2, 4));
        assertEquals(List.of("executor_h1_2"), batch.locations(3, 4));
        live.remove(E9);
        assertEquals(List.of("executor_h1_9"), batch.locations(1, 4), "a batch's placement stays as it was made");
        assertEquals(List.of("executor_h2_10"), placement.forBatch().locations(1, 4), "the next batch's follows");
    }

    @Test
    void theAutoscalersExecutorsOverrideTheLiveOnes() {
        StatePlacement placement = new StatePlacement(() -> List.of(E2, E9, E10));
        placement.placeOn(List.of(E10, E2));
        assertEquals(List.of("executor_h1_2"), placement.forBatch().locations(0, 4));
        assertEquals(List.of("executor_h2_10"), placement.forBatch().locations(1, 4));
        assertEquals(List.of("executor_h1_2"), placement.forBatch().locations(2, 4));
        placement.placeOn(List.of());
        assertEquals(List.of(), placement.forBatch().locations(1, 4), "none named: Spark's default");
    }
}
