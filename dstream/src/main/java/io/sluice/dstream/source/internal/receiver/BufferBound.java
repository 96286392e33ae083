package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.source.internal.SourceSettings;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a receiver back while its stream's stored blocks that no completed batch took yet take more than a bound
 * ({@code sluice.receiver.maxBufferedBytes}): the pusher, told the stream's buffered bytes with each block's
 * acknowledgement, waits and asks the driver again every block interval until batches catch up, and meanwhile
 * {@code store} waits too, so the receiver stops reading and a TCP sender is held back by its socket instead of
 * the heap filling. A stop ends both waits.
 */
final class BufferBound {
    private static final Logger LOG = LoggerFactory.getLogger(BufferBound.class);

    private final long maxBytes;
    private final String source;
    private final long pollMillis;
    private final Object room = new Object();
    private volatile boolean paused;

    BufferBound(long maxBytes, String source, Duration poll) {
        this.maxBytes = maxBytes;
        this.source = source;
        this.pollMillis = Math.max(1, poll.toMillis());
    }

    /** On the pusher: returns once {@code buffered} (asked again with {@code ask}) is within the bound. */
    void awaitRoom(long buffered, LongSupplier ask, BooleanSupplier running) throws InterruptedException {
        if (buffered <= maxBytes) {
            return;
        }
        LOG.info("{}: {} bytes received wait for batches (bound {}, {}); pausing", source, buffered, maxBytes,
                SourceSettings.MAX_BUFFERED_BYTES);
        paused = true;
        try {
            long now = buffered;
            while (now > maxBytes && running.getAsBoolean()) {
                TimeUnit.MILLISECONDS.sleep(pollMillis);
                now = ask.getAsLong();
            }
        } finally {
            synchronized (room) {
                paused = false;
                room.notifyAll();
            }
        }
    }

    /** On the receiver's threads, in {@code store}: waits while the pusher waits for room. */
    void awaitUnpaused(BooleanSupplier running) throws InterruptedException {
        if (!paused) {
            return;
        }
        synchronized (room) {
            while (paused && running.getAsBoolean()) {
                room.wait(pollMillis);
            }
        }
    }
}
