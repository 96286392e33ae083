package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.source.internal.SourceSettings;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a receiver back while what its stream buffers takes more than a bound ({@code
 * sluice.receiver.maxBufferedBytes}). Buffered is what waits on this executor to be stored (the block being
 * filled and the queue of cut blocks, by their bytes where the elements know them, else by an estimate made when
 * a block is cut) plus the stored blocks that no completed batch took yet (serialized bytes in the block manager,
 * the driver's figure, told with each block's acknowledgement). {@code store} waits while the sum is over the
 * bound, so the receiver stops reading and a TCP sender is held back by its socket instead of the heap filling.
 * While the stored part alone is over the bound, the pusher stores no more and asks the driver again every block
 * interval until batches catch up. A stop ends both waits.
 */
final class BufferBound {
    private static final Logger LOG = LoggerFactory.getLogger(BufferBound.class);

    private final long maxBytes;
    private final String source;
    private final long pollMillis;
    private long stored;
    private long pending;
    private boolean holding;

    BufferBound(long maxBytes, String source, Duration poll) {
        this.maxBytes = maxBytes;
        this.source = source;
        this.pollMillis = Math.max(1, poll.toMillis());
    }

    /** Bytes waiting on this executor to be stored, and stored blocks not yet released (the driver's figure). */
    synchronized long buffered() {
        return stored + pending;
    }

    /**
     * On the receiver's threads, in {@code store}, before an element is added: returns once what is buffered is
     * within the bound (one element may then pass it: an element is never split).
     */
    synchronized void awaitRoom(BooleanSupplier running) throws InterruptedException {
        if (stored + pending <= maxBytes) {
            return;
        }
        if (!holding) {
            holding = true;
            LOG.info("{}: {} bytes received wait for batches ({} stored, {} to store; bound {}, {}); pausing",
                    source, stored + pending, stored, pending, maxBytes, SourceSettings.MAX_BUFFERED_BYTES);
        }
        while (stored + pending > maxBytes && running.getAsBoolean()) {
            wait(pollMillis);
        }
        holding = false;
    }

    /** An element of {@code bytes} (or a cut block's estimate) now waits to be stored. */
    synchronized void added(long bytes) {
        pending += bytes;
    }

    /**
     * The pusher stored a block that held {@code bytes} of what waited, and the driver counts {@code storedBytes}
     * now (the block included).
     */
    synchronized void stored(long bytes, long storedBytes) {
        pending -= bytes;
        stored = storedBytes;
        notifyAll();
    }

    /** A block of {@code bytes} that waited will never be stored (storing it failed). */
    synchronized void dropped(long bytes) {
        pending -= bytes;
        notifyAll();
    }

    private synchronized void storedNow(long storedBytes) {
        stored = storedBytes;
        notifyAll();
    }

    private synchronized boolean storedOver() {
        return stored > maxBytes;
    }

    /**
     * On the pusher, after a block's acknowledgement: while the stored blocks alone are over the bound, asks the
     * driver ({@code ask}) again every block interval.
     */
    void awaitStoredRoom(LongSupplier ask, BooleanSupplier running) throws InterruptedException {
        while (storedOver() && running.getAsBoolean()) {
            TimeUnit.MILLISECONDS.sleep(pollMillis);
            storedNow(ask.getAsLong());
        }
    }
}
