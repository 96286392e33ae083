package io.sluice.dstream.internal.scheduler;

import io.sluice.dstream.Clock;
import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.function.Consumer;

/** Fires once per batch interval, waiting only on the injected clock; the tick handler must not block. */
final class BatchTimer {
    private final Clock clock;
    private final Duration interval;
    private final Consumer<Time> onTick;
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Time next;

    BatchTimer(Clock clock, Duration interval, Time first, Consumer<Time> onTick, String name) {
        this.clock = clock;
        this.interval = interval;
        this.onTick = onTick;
        this.next = first;
        this.thread = new Thread(this::run, "sluice-batch-timer-" + name);
        this.thread.setDaemon(true);
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
