package io.sluice.dstream.source.internal.replay;

import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import java.time.Duration;

/**
 * Which batch a recorded record belongs to, read in the order it was recorded, with a bounded lateness. Batch
 * {@code t} holds the timestamps in {@code (t - interval, t]} (batch times are whole intervals since the epoch,
 * as the context's grid). Batch {@code t} is closed once a record more than {@code lateness} newer than
 * {@code t} was read (the watermark, the newest timestamp read minus the lateness, passed it): a record whose
 * batch is still open goes to it, wherever it sits in the recording; a record whose batch closed is late, and
 * goes (repaired) to the first open batch, where a live stream would have received it, or follows the
 * bad-record policy there. A plain function of the records read before, so an index and a reader that starts
 * in the middle of a file (with the newest timestamp read up to there) place every record the same way.
 */
final class Placement {
    static final long NONE = Long.MIN_VALUE;

    private final BatchGrid grid;
    private final long lateness;
    private long newest; // NONE before the first record

    Placement(long interval, long lateness, long newest) {
        if (interval <= 0 || lateness < 0) {
            throw new IllegalArgumentException("interval must be positive and lateness not negative: " + interval
                    + ", " + lateness);
        }
        this.grid = BatchGrid.ofEpoch(Duration.ofMillis(interval));
        this.lateness = lateness;
        this.newest = newest;
    }

    /** The batch that holds timestamp {@code ts}: the first batch time at or after it. */
    static long batchOf(long ts, long interval) {
        return batchOf(ts, BatchGrid.ofEpoch(Duration.ofMillis(interval)));
    }

    private static long batchOf(long ts, BatchGrid grid) {
        return grid.batchHolding(new Time(ts)).milliseconds();
    }

    /** The newest timestamp read so far, or {@link #NONE}. */
    long newest() {
        return newest;
    }

    /** The first batch still open, or {@link #NONE} before the first record. */
    long firstOpen() {
        if (newest == NONE) {
            return NONE;
        }
        return batchOf(newest - lateness, grid);
    }

    /** Whether a record at {@code ts} read now is late: its batch has closed. */
    boolean isLate(long ts) {
        return newest != NONE && batchOf(ts, grid) < firstOpen();
    }

    /** Places the record at {@code ts}: its own batch, or, when it is late, the first open one. */
    long place(long ts) {
        long batch = isLate(ts) ? firstOpen() : batchOf(ts, grid);
        if (newest == NONE || ts > newest) {
            newest = ts;
        }
        return batch;
    }
}
