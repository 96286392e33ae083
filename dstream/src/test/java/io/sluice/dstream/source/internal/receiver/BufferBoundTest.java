package io.sluice.dstream.source.internal.receiver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Blocks cut but not stored yet count against the receiver's bound: with storing held up and a queue long
 * enough for everything, {@code store} still stops once what waits passes the bound, by the elements' bytes or,
 * where they do not tell them, by each block's estimate.
 */
class BufferBoundTest {
    private static final long BOUND = 1 << 20;
    private static final int ELEMENT = 64 * 1024;
    private static final int ELEMENTS = 100;

    @Test
    void blocksWaitingToBeStoredCountAgainstTheBound() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        BufferBound bound = new BufferBound(BOUND, "test", Duration.ofMillis(1));
        AtomicLong pushed = new AtomicLong();
        BlockGenerator<byte[]> generator = new BlockGenerator<>("test", Duration.ofMillis(1), 1_000, BOUND / 4, bound,
                null, new BlockGenerator.BlockSink<>() {
                    @Override
                    public void push(List<Object> elements, long count, long bytes, long skipped, long repaired,
                            String firstProblem) throws Exception {
                        release.await();
                        pushed.addAndGet(count);
                        bound.stored(bytes, 0); // as if a batch took the block at once
                    }

                    @Override
                    public void pushFailed(long bytes, Exception e) {
                        throw new AssertionError(e);
                    }
                });
        generator.start();
        AtomicLong added = new AtomicLong();
        Thread receiver = new Thread(() -> {
            try {
                while (added.get() < ELEMENTS) {
                    bound.awaitRoom(() -> true); // what the supervisor's store does before adding
                    generator.add(new byte[ELEMENT], 1, ELEMENT);
                    added.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "test-receiver");
        receiver.start();
        // Nothing is stored: the receiver reaches the bound and waits in awaitRoom (a timed wait), where only a
        // stored block lets it out. Without the bound it would add all 100 elements (6.4 MB, 25 blocks queued).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(added.get() >= BOUND / ELEMENT && receiver.getState() == Thread.State.TIMED_WAITING)
                && System.nanoTime() < deadline) {
            receiver.join(1);
        }
        long held = added.get();
        assertTrue(held >= BOUND / ELEMENT && held <= BOUND / ELEMENT + 1 && bound.buffered() <= BOUND + ELEMENT,
                "store went on to " + held + " elements (" + bound.buffered() + " bytes) while nothing was stored");
        release.countDown();
        receiver.join();
        generator.stopAndFlush();
        assertEquals(ELEMENTS, pushed.get(), "every element is in a stored block");
        assertEquals(0, bound.buffered(), "nothing waits once everything is stored");
    }

    @Test
    void recordsOfUnknownSizeCountByTheirBlocksEstimate() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        BufferBound bound = new BufferBound(BOUND, "test", Duration.ofMillis(1));
        AtomicLong pushed = new AtomicLong();
        BlockGenerator<Integer> generator = new BlockGenerator<>("test", Duration.ofMillis(1), 1_000, BOUND / 4, bound,
                block -> block.size() * 1_000L, new BlockGenerator.BlockSink<>() {
                    @Override
                    public void push(List<Object> elements, long count, long bytes, long skipped, long repaired,
                            String firstProblem) throws Exception {
                        release.await();
                        pushed.addAndGet(count);
                        bound.stored(bytes, 0);
                    }

                    @Override
                    public void pushFailed(long bytes, Exception e) {
                        throw new AssertionError(e);
                    }
                });
        generator.start();
        AtomicLong added = new AtomicLong();
        Thread receiver = new Thread(() -> {
            try {
                while (added.get() < 100_000) {
                    bound.awaitRoom(() -> true);
                    generator.add(1); // 0 bytes known: the block is estimated as it is cut, 1,000 bytes a record
                    added.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "test-receiver");
        receiver.start();
        // Cut blocks are estimated every millisecond: the receiver stops once they pass 1 MB (about 1,049 records
        // and whatever one interval added), far from the 100,000 (100 MB estimated) it would add without.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(bound.buffered() > BOUND && receiver.getState() == Thread.State.TIMED_WAITING)
                && System.nanoTime() < deadline) {
            receiver.join(1);
        }
        assertTrue(bound.buffered() > BOUND && added.get() < 100_000, added.get() + " records added, "
                + bound.buffered() + " bytes counted, receiver " + receiver.getState());
        release.countDown();
        receiver.join();
        generator.stopAndFlush();
        assertEquals(100_000, pushed.get(), "every record is in a stored block");
        assertEquals(0, bound.buffered(), "estimates are taken off as their blocks are stored");
    }
}
