package io.sluice.recovery.internal;

import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What a restarted driver does before its timer takes over: which batches it runs again or for the first
 * time, which it skips, and the first batch the timer generates. A plain function of the checkpoint and the
 * clock, so it is tested without Spark.
 *
 * <p>Batches pending at the crash always run again (their outputs may be partly written; sinks are
 * idempotent per batch time). Batches whose time passed while the driver was down are generated, oldest
 * first, or, with {@code skipMissed}, skipped: they produce no output and contribute nothing to state.
 */
public record RecoveryPlan(List<Time> rerun, List<Time> skipped, Time firstTimerBatch) {
    public RecoveryPlan {
        rerun = List.copyOf(rerun);
        skipped = List.copyOf(skipped);
    }

    public static RecoveryPlan of(Checkpoint checkpoint, Time now, boolean skipMissed) {
        BatchGrid grid = new BatchGrid(checkpoint.zeroTime(), checkpoint.batchInterval());
        TreeSet<Time> rerun = new TreeSet<>(checkpoint.pending());
        // The batches from the next one through the last the timer would have fired by now.
        Time next = checkpoint.nextBatchTime();
        Time due = grid.floor(now);
        List<Time> missed = grid.timesFrom(next, due);
        List<Time> skipped = skipMissed ? missed : List.of();
        if (!skipMissed) {
            rerun.addAll(missed);
        }
        return new RecoveryPlan(new ArrayList<>(rerun), skipped, missed.isEmpty() ? next : grid.next(due));
    }
}
