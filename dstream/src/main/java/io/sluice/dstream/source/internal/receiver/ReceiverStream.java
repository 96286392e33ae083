package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.receiver.Receiver;
import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import io.sluice.rdd.Deadline;
import io.sluice.rdd.internal.RpcEndpoints;

/**
 * The driver's view of one receiver stream: blocks reported but not yet taken by a batch, the receiver's
 * endpoint and rate, whether it stopped for good (and why), and counters for diagnostics and tests.
 */
public final class ReceiverStream {
    private final int streamId;
    private final String source;
    private final Receiver<?> receiver;
    private final BlockFormat format;
    private final long maxRate;
    private static final String POSITION_VERSION = "blocks-v1";

    private final String stableId;
    private final List<ReceivedBlock> unallocated = new ArrayList<>();
    // With the write-ahead log: the log of reported blocks, and per batch the newest block it took.
    private BlockMetadataLog metadata;
    private long nextSequence;
    private int newestLoggedGeneration;
    private final BatchTimeMap<Long> lastSequenceAt = new BatchTimeMap<>();
    private final Map<Time, List<ReceivedBlock>> restoredBatches = new HashMap<>();
    // With the write-ahead log: the oldest write time of the blocks each batch took, to clean the logs by.
    private final BatchTimeMap<Long> oldestWriteAt = new BatchTimeMap<>();
    private Time lastCleaned;
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
    private String failure;

    ReceiverStream(int streamId, String source, String stableId, Receiver<?> receiver, BlockFormat format,
            long maxRate, long rate) {
        this.streamId = streamId;
        this.stableId = stableId;
        this.source = source;
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

    /**
     * Takes up the log of reported blocks. Blocks already in it were acknowledged by a driver that died before
     * its first checkpoint (a restart from a checkpoint re-allocates them in {@link #restore}): they go to the
     * first batch, and new blocks are numbered after them.
     */
    synchronized void useLog(BlockMetadataLog log) {
        this.metadata = log;
        for (ReceivedBlock b : log.readAll()) {
            unallocated.add(b);
            nextSequence = Math.max(nextSequence, b.sequence() + 1);
            newestLoggedGeneration = Math.max(newestLoggedGeneration, (int) (b.uniqueId() >>> 32));
        }
    }

    /** The newest generation of the blocks in the log taken up at start (0: none); new ones must be above it. */
    synchronized int newestLoggedGeneration() {
        return newestLoggedGeneration;
    }

    synchronized void closeLog() {
        if (metadata != null) {
            try {
                metadata.close();
            } catch (java.io.IOException e) {
                // nothing more will be written
            }
        }
    }

    synchronized boolean hasLog() {
        return metadata != null;
    }

    /** Records a reported block (logging it first, with the log on); returns once the block is safe. */
    synchronized void add(Messages.AddBlock m, Time now) throws java.io.IOException {
        ReceivedBlock block = new ReceivedBlock(m.uniqueId(), m.records(), m.skipped(), m.repaired(), m.firstProblem(),
                m.walRecord(), nextSequence++, m.writeTime());
        if (metadata != null) {
            metadata.append(block, now);
        }
        unallocated.add(block);
        if (block.hasData() && m.bytes() > 0) {
            storedBytes.put(block.uniqueId(), m.bytes());
            bufferedBytes += m.bytes();
            maxBufferedBytes = Math.max(maxBufferedBytes, bufferedBytes);
        }
        receivedRecords += block.records();
        receivedSkipped += block.skipped();
        notifyAll();
    }

    /**
     * The blocks of batch {@code time}: those it took before a driver restart if it runs again, else every
     * block reported and not taken so far.
     */
    public synchronized List<ReceivedBlock> allocate(Time time) {
        List<ReceivedBlock> taken = restoredBatches.remove(time);
        if (taken == null) {
            taken = List.copyOf(unallocated);
            unallocated.clear();
        }
        long last = taken.isEmpty() ? lastSequenceBefore(time) : taken.get(taken.size() - 1).sequence();
        lastSequenceAt.put(time, last);
        taken.stream().mapToLong(ReceivedBlock::writeTime).filter(w -> w >= 0).min()
                .ifPresent(w -> oldestWriteAt.put(time, w));
        return taken;
    }

    /** Takes what no batch took, for cleaning up at the end. */
    public synchronized List<ReceivedBlock> drain() {
        List<ReceivedBlock> taken = List.copyOf(unallocated);
        unallocated.clear();
        return taken;
    }

    private long lastSequenceBefore(Time time) {
        return lastSequenceAt.before(time).map(Map.Entry::getValue).orElse(-1L);
    }

    /** Where the stream stands after batch {@code time}: the newest block taken by then (log on only). */
    synchronized String positionAfter(Time time) {
        Long last = lastSequenceAt.get(time).orElse(null);
        return metadata == null || last == null ? null : POSITION_VERSION + " " + last;
    }

    /** The position before any batch took a block (log on only). */
    synchronized String positionBeforeFirstBatch() {
        return metadata == null ? null : POSITION_VERSION + " -1";
    }

    /**
     * After a driver restart: the first position is the last completed batch's, the others those of batches
     * that run again; each of those gets the logged blocks after its predecessor's position up to its own, and
     * the blocks after the newest position wait for the next batch.
     */
    synchronized void restore(NavigableMap<Time, String> positions) {
        if (metadata == null) {
            return;
        }
        NavigableMap<Time, Long> last = new TreeMap<>();
        positions.forEach((t, p) -> {
            String[] f = p.split(" ");
            if (f.length != 2 || !f[0].equals(POSITION_VERSION)) {
                throw new IllegalArgumentException(source + ": not a receiver position of format "
                        + POSITION_VERSION + ": '" + p + "'");
            }
            last.put(t, Long.parseLong(f[1]));
        });
        // Every logged block: useLog took them all up, and no block is reported before a restore.
        List<ReceivedBlock> logged = List.copyOf(unallocated);
        long previous = last.firstEntry().getValue();
        for (Map.Entry<Time, Long> e : last.tailMap(last.firstKey(), false).entrySet()) {
            long from = previous;
            long to = e.getValue();
            restoredBatches.put(e.getKey(), logged.stream().filter(b -> b.sequence() > from && b.sequence() <= to)
                    .toList());
            previous = Math.max(previous, to);
        }
        long newest = previous;
        unallocated.clear();
        logged.stream().filter(b -> b.sequence() > newest).forEach(unallocated::add);
        nextSequence = logged.stream().mapToLong(ReceivedBlock::sequence).max().orElse(newest) + 1;
        nextSequence = Math.max(nextSequence, newest + 1);
        last.forEach(lastSequenceAt::put);
    }

    /**
     * Whether the logs should be cleaned up to {@code threshold} now: at most once per {@code every} of batch
     * time. Forgets what it kept about batches up to the threshold.
     */
    synchronized boolean cleaningDue(Time threshold, java.time.Duration every) {
        if (lastCleaned != null && threshold.minus(lastCleaned).compareTo(every) < 0) {
            return false;
        }
        lastCleaned = threshold;
        return true;
    }

    /**
     * The oldest write time of a logged block that a batch after {@code threshold} took or that no batch took
     * yet: data logged before it is needed by no batch a restart could run again. -1 when there is none.
     */
    synchronized long oldestWriteNeededAfter(Time threshold) {
        oldestWriteAt.forgetThrough(threshold);
        long oldest = Long.MAX_VALUE;
        for (long w : oldestWriteAt.values()) {
            oldest = Math.min(oldest, w);
        }
        for (ReceivedBlock b : unallocated) {
            if (b.writeTime() >= 0) {
                oldest = Math.min(oldest, b.writeTime());
            }
        }
        for (List<ReceivedBlock> blocks : restoredBatches.values()) {
            for (ReceivedBlock b : blocks) {
                if (b.writeTime() >= 0) {
                    oldest = Math.min(oldest, b.writeTime());
                }
            }
        }
        return oldest == Long.MAX_VALUE ? -1 : oldest;
    }

    /** Drops the driver's log records of blocks reported before {@code threshold} (driver clock). */
    synchronized void cleanLog(Time threshold) throws java.io.IOException {
        if (metadata != null) {
            metadata.clean(threshold);
        }
    }

    /** Forgets positions of batches up to {@code time}. */
    synchronized void forgetUpTo(Time time) {
        lastSequenceAt.forgetBefore(time);
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
