package io.sluice.rdd;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waiting until a condition holds or a timeout passes: on a monitor ({@link #await}, the one loop the engine
 * needs for it: monotonic time, spurious wake-ups, interrupts; the caller notifies {@code monitor} when the
 * condition may have changed), for a thread to end ({@link #join}), or in a loop of the caller's that polls
 * something else ({@link #passed}, {@link #remaining}). Public so that connectors (Kafka's waits for a group
 * assignment) bound their waits the same way.
 */
public final class Deadline {
    private final long deadlineNanos;

    private Deadline(long deadlineNanos) {
        this.deadlineNanos = deadlineNanos;
    }

    /** A deadline {@code timeout} from now; null waits without end. */
    public static Deadline after(Duration timeout) {
        if (timeout == null) {
            return new Deadline(Long.MAX_VALUE);
        }
        long nanos = timeout.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : timeout.toNanos();
        return new Deadline(saturatedAdd(System.nanoTime(), nanos));
    }

    /** What is left, never negative. */
    public Duration remaining() {
        if (deadlineNanos == Long.MAX_VALUE) {
            return Duration.ofNanos(Long.MAX_VALUE);
        }
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    public boolean passed() {
        return deadlineNanos != Long.MAX_VALUE && deadlineNanos - System.nanoTime() <= 0;
    }

    /**
     * Waits on {@code monitor} (the caller must hold it) until {@code done} holds; returns false if the deadline
     * passed first. An interrupt ends the wait early: it returns false with the thread's interrupt flag set.
     */
    public boolean await(Object monitor, BooleanSupplier done) {
        while (!done.getAsBoolean()) {
            long left = deadlineNanos == Long.MAX_VALUE ? 0 : deadlineNanos - System.nanoTime();
            if (deadlineNanos != Long.MAX_VALUE && left <= 0) {
                return false;
            }
            try {
                monitor.wait(deadlineNanos == Long.MAX_VALUE ? 0 : Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Waits for {@code thread} to end until the deadline; returns whether it ended. */
    public boolean join(Thread thread) {
        while (thread.isAlive()) {
            if (passed()) {
                return false;
            }
            try {
                thread.join(deadlineNanos == Long.MAX_VALUE ? 0 : Math.max(1, remaining().toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE - 1 : sum;
    }
}
