package io.sluice.dstream;

import io.sluice.dstream.internal.scheduler.BatchScheduler;
import io.sluice.dstream.source.RecordedSpan;
import io.sluice.rdd.Time;
import java.time.Duration;

/**
 * {@link Clock#replay()}: time is the recording's. The context's start sets it just before the batch holding
 * the first record; each time the batch timer waits for the next batch, the clock waits for the batch it let
 * through before to complete and then jumps to the next batch time. Past the batch holding the last record it
 * calls the end handler (which stops the context) instead. Between jumps it moves with the wall clock, up to
 * just before the next batch time, so listeners see real processing times; batch times never depend on it.
 */
final class ReplayClock implements Clock, BatchScheduler.BatchObserver {
    private long now;
    private long releasedAtNanos;
    private long drift; // how far millis() may run ahead of now: 0 until the first batch, then interval - 1
    private long interval;
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
    synchronized void begin(RecordedSpan span, Duration batchInterval, Runnable onEnd) {
        if (begun) {
            throw new IllegalStateException("this replay clock already runs a context: give each context its own "
                    + "Clock.replay()");
        }
        begun = true;
        interval = batchInterval.toMillis();
        this.onEnd = onEnd;
        if (span == null) {
            now = Clock.system().millis();
        } else {
            now = span.first().milliseconds() - 1; // the grid's zero falls before the first record's batch
            lastBatch = -Math.floorDiv(-span.last().milliseconds(), interval) * interval;
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
        while (released != null && (completed == null || completed.isBefore(released))) {
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

    @Override
    public synchronized void batchCompleted(Time time) {
        if (completed == null || time.isAfter(completed)) {
            completed = time;
        }
        notifyAll();
    }
}
