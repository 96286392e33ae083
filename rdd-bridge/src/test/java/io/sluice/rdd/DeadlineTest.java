package io.sluice.rdd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class DeadlineTest {
    private final Object monitor = new Object();
    private boolean done;

    @Test
    void awaitReturnsOnceTheConditionHoldsAfterANotify() throws InterruptedException {
        CountDownLatch waiting = new CountDownLatch(1);
        Thread setter = new Thread(() -> {
            try {
                waiting.await();
            } catch (InterruptedException e) {
                return;
            }
            synchronized (monitor) {
                done = true;
                monitor.notifyAll();
            }
        });
        setter.start();
        boolean result;
        synchronized (monitor) {
            waiting.countDown(); // the setter can take the monitor only once this thread waits on it
            result = Deadline.after(null).await(monitor, () -> done);
        }
        assertTrue(result);
        assertTrue(Deadline.after(Duration.ofSeconds(30)).join(setter));
    }

    @Test
    void awaitGivesUpWhenTheDeadlinePasses() {
        Deadline deadline = Deadline.after(Duration.ofMillis(20));
        synchronized (monitor) {
            assertFalse(deadline.await(monitor, () -> false));
        }
        assertTrue(deadline.passed());
        assertEquals(Duration.ZERO, deadline.remaining());
    }

    @Test
    void anInterruptEndsTheWaitAndKeepsTheFlag() {
        Thread.currentThread().interrupt();
        synchronized (monitor) {
            assertFalse(Deadline.after(null).await(monitor, () -> false));
        }
        assertTrue(Thread.interrupted());
    }

    @Test
    void aConditionThatHoldsNeedsNoWait() {
        synchronized (monitor) {
            assertTrue(Deadline.after(Duration.ZERO).await(monitor, () -> true));
        }
        assertFalse(Deadline.after(null).passed());
        assertTrue(Deadline.after(Duration.ofDays(365_000_000)).remaining().toDays() > 1_000);
    }
}
