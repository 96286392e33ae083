package io.sluice.recovery.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecoveryPlanTest {
    /** Batch 5 s completed; 6 s and 7 s were generated and pending at the crash; 8 s is the timer's next. */
    private static final Checkpoint CRASHED = new Checkpoint(new Time(5000), Duration.ofSeconds(1), new Time(0),
            List.of(new Time(7000), new Time(6000)), new Time(8000), Map.of(), List.of(), List.of());

    private static List<Time> times(long... ms) {
        return java.util.Arrays.stream(ms).mapToObj(Time::new).toList();
    }

    @Test
    void pendingBatchesRunAgainThenMissedOnesAreGeneratedInOrder() {
        RecoveryPlan plan = RecoveryPlan.of(CRASHED, new Time(10_500), false);
        assertEquals(times(6000, 7000, 8000, 9000, 10_000), plan.rerun());
        assertEquals(List.of(), plan.skipped());
        assertEquals(new Time(11_000), plan.firstTimerBatch());
    }

    @Test
    void missedBatchesCanBeSkippedButPendingOnesStillRun() {
        RecoveryPlan plan = RecoveryPlan.of(CRASHED, new Time(10_000), true);
        assertEquals(times(6000, 7000), plan.rerun());
        assertEquals(times(8000, 9000, 10_000), plan.skipped());
        assertEquals(new Time(11_000), plan.firstTimerBatch());
    }

    @Test
    void aRestartBeforeTheNextBatchWasDueMissesNothing() {
        RecoveryPlan plan = RecoveryPlan.of(CRASHED, new Time(7_999), false);
        assertEquals(times(6000, 7000), plan.rerun());
        assertEquals(new Time(8000), plan.firstTimerBatch());
    }

    @Test
    void theGridIsTheCheckpointsZeroTimeNotTheEpoch() {
        Checkpoint offset = new Checkpoint(new Time(1300), Duration.ofMillis(500), new Time(300), List.of(),
                new Time(1800), Map.of(), List.of(), List.of());
        RecoveryPlan plan = RecoveryPlan.of(offset, new Time(2900), false);
        assertEquals(times(1800, 2300, 2800), plan.rerun());
        assertEquals(new Time(3300), plan.firstTimerBatch());
    }
}
