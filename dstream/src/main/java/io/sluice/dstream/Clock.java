package io.sluice.dstream;

import io.sluice.dstream.internal.context.ReplayClock;

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

    /**
     * A fast-forward clock for replaying recorded input: the context runs batch t+1 as soon as batch t has
     * completed, from the batch holding the earliest record of its replay sources ({@code Replay}) to the batch
     * holding the latest, and then stops by itself (gracefully; the SparkContext too if the context made it).
     * Batch times, windows and state timeouts are those of the recording. Without a replay source it starts at the
     * wall time and runs until stopped. One context per replay clock: call this for each context.
     */
    static Clock replay() {
        return new ReplayClock();
    }
}
