package io.sluice.dstream;

/**
 * Where the batch timer gets time from. The engine never reads the system clock directly: tests inject a
 * manual clock ({@code io.sluice.testkit.ManualClock}, in sluice-testkit) and advance it, so no test waits for
 * real time to pass.
 */
public interface Clock {
    long millis();

    /** Blocks until {@link #millis()} is at least {@code target}; returns the time it then reads. */
    long waitUntil(long target) throws InterruptedException;

    static Clock system() {
        return SystemClock.INSTANCE;
    }
}
