package io.sluice.dstream.source.internal.receiver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When storing blocks falls behind, the receiver's {@code store} waits: memory holds a bounded number of blocks. */
class BlockGeneratorTest {
    @Test
    void aFullQueueMakesAddWaitAndLosesNothing() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong pushed = new AtomicLong();
        AtomicLong blocks = new AtomicLong();
        BlockGenerator<Integer> generator = new BlockGenerator<>("test", Duration.ofMillis(1), 1, Long.MAX_VALUE,
                new BufferBound(Long.MAX_VALUE, "test", Duration.ofMillis(1)), null,
                new BlockGenerator.BlockSink<>() {
                    @Override
                    public void push(List<Object> elements, long count, long bytes, long skipped, long repaired,
                            String firstProblem) throws Exception {
                        release.await();
                        blocks.incrementAndGet();
                        pushed.addAndGet(count);
                    }

                    @Override
                    public void pushFailed(long bytes, Exception e) {
                        throw new AssertionError(e);
                    }
                });
        generator.start();
        AtomicLong added = new AtomicLong();
        Thread receiver = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted() && added.get() < 5_000_000) {
                generator.add(1);
                added.incrementAndGet();
            }
        }, "test-receiver");
        receiver.start();
        // The pusher holds one block, the queue one more, the generator waits with a third: add must block, and
        // stay blocked (without the back-pressure it would add all 5,000,000 records within the second).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        boolean held = false;
        while (!held && receiver.isAlive() && System.nanoTime() < deadline) {
            long before = added.get();
            receiver.join(200);
            held = receiver.getState() == Thread.State.BLOCKED && added.get() == before;
        }
        assertTrue(held, "store kept buffering while nothing was stored: " + added.get() + " records added");
        receiver.interrupt();
        release.countDown();
        receiver.join();
        generator.stopAndFlush();
        assertEquals(added.get(), pushed.get(), "every added record is in a pushed block");
        assertTrue(blocks.get() >= 3, "blocks " + blocks.get());
    }
}
