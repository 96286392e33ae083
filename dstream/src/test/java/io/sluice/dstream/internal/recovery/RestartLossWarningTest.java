package io.sluice.dstream.internal.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.rdd.Time;
import io.sluice.recovery.Checkpoint;
import io.sluice.recovery.RecoveryPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The warning a restart logs when a source cannot replay: it names re-runs and missed batches for what they are. */
class RestartLossWarningTest {
    private static Checkpoint checkpoint(List<Time> pending, long next) {
        return new Checkpoint(new Time(3000), Duration.ofSeconds(1), new Time(0), pending, new Time(next), Map.of(),
                List.of(), List.of());
    }

    @Test
    void withNoPendingBatchTheWarningNamesOnlyTheBatchesMissedWhileTheDriverWasDown() {
        Checkpoint crashed = checkpoint(List.of(), 4000);
        RecoveryPlan plan = RecoveryPlan.of(crashed, new Time(6500), false);
        assertEquals(List.of(new Time(4000), new Time(5000), new Time(6000)), plan.rerun());

        String warning = Recovery.lossWarning(List.of("queueStream"), crashed, plan).orElseThrow();
        assertTrue(warning.contains("the batches missed while the driver was down (3 batches, " + new Time(4000)
                + " to " + new Time(6000) + ")"), warning);
        assertFalse(warning.contains("run again"), warning);
        assertFalse(warning.contains("pending"), warning);
    }

    @Test
    void pendingBatchesAreNamedAsRunAgainAndMissedOnesApart() {
        Checkpoint crashed = checkpoint(List.of(new Time(4000)), 5000);
        RecoveryPlan plan = RecoveryPlan.of(crashed, new Time(6500), false);

        String warning = Recovery.lossWarning(List.of("queueStream"), crashed, plan).orElseThrow();
        assertTrue(warning.contains("the batches pending at the crash (" + new Time(4000) + ") run again"), warning);
        assertTrue(warning.contains("the batches missed while the driver was down (2 batches, " + new Time(5000)
                + " to " + new Time(6000) + ")"), warning);
    }

    @Test
    void nothingIsLostWhenEverySourceReplaysOrNoBatchRunsBeforeTheTimer() {
        Checkpoint crashed = checkpoint(List.of(new Time(4000)), 5000);
        assertEquals(Optional.empty(),
                Recovery.lossWarning(List.of(), crashed, RecoveryPlan.of(crashed, new Time(6500), false)));
        Checkpoint clean = checkpoint(List.of(), 4000);
        assertEquals(Optional.empty(),
                Recovery.lossWarning(List.of("queueStream"), clean, RecoveryPlan.of(clean, new Time(3500), false)));
        assertEquals(Optional.empty(),
                Recovery.lossWarning(List.of("queueStream"), clean, RecoveryPlan.of(clean, new Time(6500), true)));
    }
}
