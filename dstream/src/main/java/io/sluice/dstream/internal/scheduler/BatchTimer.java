package io.sluice.dstream.internal.scheduler;

import io.sluice.dstream.Clock;
import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Fires once per batch interval, waiting only on the injected clock; the tick handler must not block. A stepped
 * timer (notebooks' {@code runBatches}) fires no batch after the one it was allowed through, until allowed more.
 */
final class BatchTimer {
    private final Clock clock;
    private final Duration interval;
    private final Consumer<Time> onTick;
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Time next;
    private Time allowedThrough; // null: every batch; guarded by this

    /** @param allowedThrough the last batch it may fire, null for no limit (a stepped timer: before the first) */
    BatchTimer(Clock clock, Duration interval, Time first, Consumer<Time> onTick, String name, Time allowedThrough) {
        this.clock = clock;
        this.allowedThrough = allowedThrough;
        this.interval = interval;
        this.onTick = onTick;
        this.next = first;
        this.thread = new Thread(this::run, "sluice-batch-timer-" + name);
        this.thread.setDaemon(true);
    }

    /** Lets a stepped timer fire {@code n} more batches; returns the last of them. */
    synchronized Time allow(int n) {
        if (allowedThrough == null) {
            throw new IllegalStateException("the batch timer is not stepped");
        }
        Time from = allowedThrough.isBefore(next) ? next.minus(interval) : allowedThrough;
        allowedThrough = from.plus(interval.multipliedBy(n));
        notifyAll();
        return allowedThrough;
    }

    private synchronized void awaitAllowed(Time time) throws InterruptedException {
        while (allowedThrough != null && time.isAfter(allowedThrough)) {
            wait();
        }
    }

    void start() {
        thread.start();
    }

    /** Stops ticking; returns the time of the last batch it fired, or the one before the first. */
    Time stop() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return next.minus(interval);
    }

    private void run() {
        try {
            while (!stopped) {
                awaitAllowed(next);
                clock.waitUntil(next.milliseconds());
                if (stopped) {
                    return;
                }
                onTick.accept(next);
                next = next.plus(interval);
            }
        } catch (InterruptedException e) {
            // stopped
        }
    }
}
