package io.sluice.dstream.internal.context;

import io.sluice.dstream.Clock;
import io.sluice.dstream.internal.scheduler.BatchScheduler;
import io.sluice.dstream.source.RecordedSpan;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import java.time.Duration;

/**
 * {@link Clock#replay()}: time is the recording's. The context's start sets it just before the batch holding
 * the first record. Batches run in groups of {@code groupSize} consecutive batch times, aligned on the epoch
 * (the recording's last batch also ends a group): the timer goes through a group's batch times at once, and
 * the scheduler runs the group's outputs together ({@link BatchScheduler.Groups}); at the first batch of the
 * next group the clock waits for the group before to complete. Past the batch holding the last record it calls
 * the end handler (which stops the context) instead. Between jumps it moves with the wall clock, up to just
 * before the next batch time, so listeners see real processing times; batch times never depend on it.
 */
public final class ReplayClock implements Clock, BatchScheduler.BatchObserver, BatchScheduler.Groups {
    private long now;
    private long releasedAtNanos;
    private long drift; // how far millis() may run ahead of now: 0 until the first batch, then interval - 1
    private long interval;
    private BatchGrid grid; // the batch interval's, from the epoch: where the context's batches fall
    private int groupSize = 1;
    private Time released;
    private Time completed;
    private long lastBatch = Long.MAX_VALUE;
    private Runnable onEnd;
    private boolean begun;
    private boolean ended;

    /**
     * Starts the replay of {@code span} (null: no recording, from the wall time on, no end); {@code onEnd} is
     * called once, from the timer's thread, when the timer asks for the batch after the last one.
     */
    synchronized void begin(RecordedSpan span, Duration batchInterval, int groupSize, Runnable onEnd) {
        if (begun) {
            throw new IllegalStateException("this replay clock already runs a context: give each context its own "
                    + "Clock.replay()");
        }
        begun = true;
        interval = batchInterval.toMillis();
        grid = BatchGrid.ofEpoch(batchInterval);
        this.groupSize = Math.max(1, groupSize);
        this.onEnd = onEnd;
        if (span == null) {
            now = Clock.system().millis();
        } else {
            now = span.first().milliseconds() - 1; // the grid's zero falls before the first record's batch
            lastBatch = grid.batchHolding(span.last()).milliseconds();
        }
        releasedAtNanos = System.nanoTime();
    }

    /** The batch time that holds the last record, or empty without a recording. */
    synchronized java.util.Optional<Time> lastBatch() {
        return lastBatch == Long.MAX_VALUE ? java.util.Optional.empty() : java.util.Optional.of(new Time(lastBatch));
    }

    @Override
    public synchronized long millis() {
        long elapsed = (System.nanoTime() - releasedAtNanos) / 1_000_000;
        return now + Math.min(elapsed, drift);
    }

    @Override
    public synchronized long waitUntil(long target) throws InterruptedException {
        while (released != null && closesGroup(released) && (completed == null || completed.isBefore(released))) {
            wait();
        }
        if (target > lastBatch) {
            if (!ended) {
                ended = true;
                onEnd.run();
            }
            while (true) {
                wait(); // until the stop interrupts the timer
            }
        }
        released = new Time(target);
        now = Math.max(millis(), target);
        releasedAtNanos = System.nanoTime();
        drift = interval - 1;
        return now;
    }

    /** Whether {@code time} is the last batch of its group: the group's batch times run before it waits. */
    @Override
    public synchronized boolean closesGroup(Time time) {
        return groupSize == 1 || time.milliseconds() >= lastBatch
                || Math.floorMod(grid.stepsFromZero(time), (long) groupSize) == groupSize - 1;
    }

    @Override
    public synchronized void batchCompleted(Time time) {
        if (completed == null || time.isAfter(completed)) {
            completed = time;
        }
        notifyAll();
    }
}
