package io.sluice.dstream.source.internal.receiver;

import java.util.concurrent.TimeUnit;

/**
 * Limits how fast a receiver stores records, on the executor in real time (receivers read real sources).
 * Permits accrue at the current rate; a caller that runs ahead waits, one short sleep per millisecond of debt,
 * so a high rate does not cost one sleep per record. The rate changes live (backpressure); 0 means unlimited.
 */
final class RateLimiter {
    /** How much unused rate may be saved up for a burst. */
    private static final long MAX_BURST_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private volatile long rate;
    private long nextFreeNanos = System.nanoTime();

    RateLimiter(long rate) {
        this.rate = Math.max(0, rate);
    }

    void setRate(long rate) {
        this.rate = Math.max(0, rate);
    }

    long rate() {
        return rate;
    }

    /** Waits until {@code permits} records may be stored. */
    void acquire(long permits) throws InterruptedException {
        long r = rate;
        if (r <= 0 || permits <= 0) {
            return;
        }
        long wait;
        synchronized (this) {
            long now = System.nanoTime();
            if (nextFreeNanos < now - MAX_BURST_NANOS) {
                nextFreeNanos = now - MAX_BURST_NANOS;
            }
            wait = nextFreeNanos - now;
            nextFreeNanos += permits * 1_000_000_000L / r;
        }
        if (wait > TimeUnit.MILLISECONDS.toNanos(1)) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }
}
