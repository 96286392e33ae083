package io.sluice.testkit;

import io.sluice.dstream.Clock;
import java.time.Duration;

/**
 * A clock that only moves when told to: a test gives it to {@code StreamingContext.create(sc, interval, clock)}
 * (or {@code builder().clock(clock)}) and advances it one batch interval at a time, so no test waits for real
 * time. It never goes back. {@link StreamTester} drives one for you.
 */
public final class ManualClock implements Clock {
    private long now;

    public ManualClock() {
        this(0);
    }

    public ManualClock(long startMillis) {
        this.now = startMillis;
    }

    @Override
    public synchronized long millis() {
        return now;
    }

    public synchronized void advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("a clock cannot go back: " + by);
        }
        now += by.toMillis();
        notifyAll();
    }

    public synchronized void setTime(long millis) {
        if (millis < now) {
            throw new IllegalArgumentException("a clock cannot go back from " + now + " to " + millis);
        }
        now = millis;
        notifyAll();
    }

    @Override
    public synchronized long waitUntil(long target) throws InterruptedException {
        while (now < target) {
            wait();
        }
        return now;
    }
}
