package io.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ManualClockTest {

    @Test
    void movesOnlyForwardAndOnlyWhenTold() {
        ManualClock clock = new ManualClock(500);
        assertEquals(500, clock.millis());
        clock.advance(Duration.ofMillis(250));
        assertEquals(750, clock.millis());
        clock.setTime(2000);
        assertEquals(2000, clock.millis());
        assertThrows(IllegalArgumentException.class, () -> clock.setTime(1999));
        assertThrows(IllegalArgumentException.class, () -> clock.advance(Duration.ofMillis(-1)));
        assertEquals(2000, clock.millis());
    }

    @Test
    void aWaiterWakesWhenTheClockReachesItsTarget() throws Exception {
        ManualClock clock = new ManualClock();
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Long> woke = CompletableFuture.supplyAsync(() -> {
            waiting.countDown();
            try {
                return clock.waitUntil(1000);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        waiting.await();
        clock.setTime(600);
        clock.setTime(1200);
        assertEquals(1200, woke.get(30, TimeUnit.SECONDS));
    }
}
