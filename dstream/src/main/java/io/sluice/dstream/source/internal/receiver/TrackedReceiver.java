package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.receiver.Receiver;
import io.sluice.rdd.Time;
import io.sluice.rdd.Deadline;
import io.sluice.rdd.internal.RpcEndpoints;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The receiver tracker's record of one receiver: where it runs (its supervisor's endpoint and executor, where it
 * moves), the rate it is held to, the bytes of its stored blocks no completed batch took yet (its buffering
 * bound), whether it stopped for good (and why), and counters that tests and diagnostics wait on. The blocks it
 * reported and the batches that took them are its {@link ReceivedBlocks}.
 */
public final class TrackedReceiver {
    private final int streamId;
    private final String source;
    private final Receiver<?> receiver;
    private final BlockFormat format;
    private final long maxRate;

    private final String stableId;
    private final ReceivedBlocks blocks;
    private volatile RpcEndpoints.Ref supervisor;
    private volatile String executorId; // where the supervisor runs; null when none does
    private volatile List<String> launchOn = List.of(); // the executors a launch prefers once the receiver moved
    private boolean moving; // stopped to move, not registered again yet
    private volatile long rate;
    // The bytes of stored blocks no completed batch has taken yet, by block id.
    private final Map<Long, Long> storedBytes = new HashMap<>();
    private long bufferedBytes;
    private long maxBufferedBytes;
    private long bufferedAsks;
    private long receivedRecords;
    private long receivedSkipped;
    private long reconnects;
    private boolean finished;
    private volatile boolean stopping; // the context stops it: its job is not launched again
    private String failure;

    TrackedReceiver(int streamId, String source, String stableId, Receiver<?> receiver, BlockFormat format,
            long maxRate, long rate) {
        this.streamId = streamId;
        this.stableId = stableId;
        this.source = source;
        this.blocks = new ReceivedBlocks(source);
        this.receiver = receiver;
        this.format = format;
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

    BlockFormat format() {
        return format;
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

    RpcEndpoints.Ref supervisor() {
        return supervisor;
    }

    synchronized void supervisor(RpcEndpoints.Ref ref, String executorId) {
        this.supervisor = ref;
        this.executorId = executorId;
        moving = false;
    }

    /** The executor the receiver runs on, or null while it runs on none. */
    String executorId() {
        return executorId;
    }

    /** Supervisor {@code ref} stopped so that the receiver moves: none runs until the next one registers. */
    synchronized void detach(RpcEndpoints.Ref ref) {
        if (supervisor == ref) {
            supervisor = null;
            executorId = null;
            moving = !finished;
        }
    }

    /** Whether the receiver stopped to move and has not started again yet. */
    synchronized boolean moving() {
        return moving;
    }

    /** The executor locations the receiver's next launches prefer (empty: its own preferred location). */
    List<String> launchOn() {
        return launchOn;
    }

    void launchOn(List<String> locations) {
        launchOn = List.copyOf(locations);
    }

    /** The stream's stable id: names this stream's logs in the checkpoint directory. */
    public String stableId() {
        return stableId;
    }

    /** Records a reported block (logging it first, with the log on); returns once the block is safe. */
    synchronized void add(Messages.AddBlock m, Time now) throws IOException {
        ReceivedBlock block = blocks.add(m, now);
        if (block.hasData() && m.bytes() > 0) {
            storedBytes.put(block.uniqueId(), m.bytes());
            bufferedBytes += m.bytes();
            maxBufferedBytes = Math.max(maxBufferedBytes, bufferedBytes);
        }
        receivedRecords += block.records();
        receivedSkipped += block.skipped();
        notifyAll();
    }

    /** The blocks it reported, and which batch took which. */
    ReceivedBlocks blocks() {
        return blocks;
    }

    /** The block {@code uniqueId} was processed by a completed batch, or removed: it no longer counts. */
    synchronized void released(long uniqueId) {
        Long bytes = storedBytes.remove(uniqueId);
        if (bytes != null) {
            bufferedBytes -= bytes;
        }
    }

    /** Bytes of the stream's stored blocks no completed batch took yet: the receiver pauses above its bound. */
    public synchronized long bufferedBytes() {
        return bufferedBytes;
    }

    /** A paused receiver asked how much is buffered (it does every block interval while paused). */
    synchronized long askedBuffered() {
        bufferedAsks++;
        notifyAll();
        return bufferedBytes;
    }

    /** Waits until a paused receiver asked {@code n} times in all how much is buffered. */
    public synchronized boolean awaitBufferedAsks(long n, Duration timeout) throws InterruptedException {
        return await(timeout, () -> bufferedAsks >= n);
    }

    /** Waits until {@link #bufferedBytes()} reaches {@code bytes}, or {@code records} were received in all. */
    public synchronized boolean awaitBuffered(long bytes, long records, Duration timeout) throws InterruptedException {
        return await(timeout, () -> bufferedBytes >= bytes || receivedRecords >= records || failure != null);
    }

    /** The most {@link #bufferedBytes()} ever was, for tests and diagnostics. */
    public synchronized long maxBufferedBytes() {
        return maxBufferedBytes;
    }

    synchronized void reconnected() {
        reconnects++;
        notifyAll();
    }

    synchronized void finish(String failure) {
        finished = true;
        supervisor = null;
        executorId = null;
        moving = false;
        if (failure != null && this.failure == null) {
            this.failure = failure;
        }
        notifyAll();
    }

    synchronized boolean finished() {
        return finished;
    }

    /** The context asked the receiver to stop: it is not launched or registered again. */
    void stopRequested() {
        stopping = true;
    }

    boolean stopping() {
        return stopping;
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
    public synchronized boolean awaitReceived(long records, long skipped, Duration timeout)
            throws InterruptedException {
        await(timeout, () -> (receivedRecords >= records && receivedSkipped >= skipped) || failure != null);
        return receivedRecords >= records && receivedSkipped >= skipped;
    }

    /** Waits until the receiver reconnected {@code n} times in all, or failed. */
    public synchronized boolean awaitReconnects(long n, Duration timeout) throws InterruptedException {
        await(timeout, () -> reconnects >= n || failure != null);
        return reconnects >= n;
    }

    /** Waits until the receiver stopped for good (by itself or with a failure). */
    public synchronized boolean awaitFinished(Duration timeout) throws InterruptedException {
        return await(timeout, () -> finished);
    }

    /** Waits on this stream (holding it) until {@code done} or the timeout. */
    private boolean await(Duration timeout, java.util.function.BooleanSupplier done) throws InterruptedException {
        boolean reached = Deadline.after(timeout).await(this, done);
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while waiting on " + source);
        }
        return reached;
    }
}
