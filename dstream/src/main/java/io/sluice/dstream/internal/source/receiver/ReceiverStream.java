package io.sluice.dstream.internal.source.receiver;

import io.sluice.dstream.receiver.Receiver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.rpc.RpcEndpointRef;

/**
 * The driver's view of one receiver stream: blocks reported but not yet taken by a batch, the receiver's
 * endpoint and rate, whether it stopped for good (and why), and counters for diagnostics and tests.
 */
public final class ReceiverStream {
    private final int streamId;
    private final String source;
    private final Receiver<?> receiver;
    private final long maxRate;
    private final List<ReceivedBlock> unallocated = new ArrayList<>();
    private volatile RpcEndpointRef supervisor;
    private volatile long rate;
    private long receivedRecords;
    private long receivedSkipped;
    private long reconnects;
    private boolean finished;
    private String failure;

    ReceiverStream(int streamId, String source, Receiver<?> receiver, long maxRate, long rate) {
        this.streamId = streamId;
        this.source = source;
        this.receiver = receiver;
        this.maxRate = maxRate;
        this.rate = rate;
    }

    public int streamId() {
        return streamId;
    }

    public String source() {
        return source;
    }

    Receiver<?> receiver() {
        return receiver;
    }

    /** The configured maximum rate (records/s), 0 for none. */
    public long maxRate() {
        return maxRate;
    }

    /** The rate the receiver is held to now (records/s), 0 for unlimited. */
    public long rate() {
        return rate;
    }

    void rate(long rate) {
        this.rate = rate;
    }

    RpcEndpointRef supervisor() {
        return supervisor;
    }

    void supervisor(RpcEndpointRef ref) {
        this.supervisor = ref;
    }

    synchronized void add(ReceivedBlock block) {
        unallocated.add(block);
        receivedRecords += block.records();
        receivedSkipped += block.skipped();
        notifyAll();
    }

    /** Takes every block reported so far, for the batch being generated. */
    public synchronized List<ReceivedBlock> allocate() {
        List<ReceivedBlock> taken = List.copyOf(unallocated);
        unallocated.clear();
        return taken;
    }

    synchronized boolean hasUnallocated() {
        return !unallocated.isEmpty();
    }

    synchronized void reconnected() {
        reconnects++;
        notifyAll();
    }

    synchronized void finish(String failure) {
        finished = true;
        supervisor = null;
        if (failure != null && this.failure == null) {
            this.failure = failure;
        }
        notifyAll();
    }

    synchronized boolean finished() {
        return finished;
    }

    /** Why the receiver stopped for good, or null if it did not fail. */
    public synchronized String failure() {
        return failure;
    }

    /** How many times the receiver was restarted (reconnected) so far. */
    public synchronized long reconnects() {
        return reconnects;
    }

    /** Records (good and skipped) reported so far. */
    public synchronized long received() {
        return receivedRecords;
    }

    public synchronized long skipped() {
        return receivedSkipped;
    }

    /**
     * Waits until {@code records} records and {@code skipped} skipped ones were reported, or the receiver
     * failed; returns whether the counts were reached. For tests and tools that must not sleep.
     */
    public synchronized boolean awaitReceived(long records, long skipped, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while ((receivedRecords < records || receivedSkipped < skipped) && failure == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return receivedRecords >= records && receivedSkipped >= skipped;
    }

    /** Waits until the receiver reconnected {@code n} times in all, or failed. */
    public synchronized boolean awaitReconnects(long n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (reconnects < n && failure == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return reconnects >= n;
    }

    /** Waits until the receiver stopped for good (by itself or with a failure). */
    public synchronized boolean awaitFinished(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!finished) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }
}
