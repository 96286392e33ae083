package io.sluice.dstream.source.internal.receiver;

import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.Time;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The driver's record of the blocks one receiver reported and of the batches that took them: the blocks no batch
 * has taken yet, and per batch the newest block it took, which is the stream's position in the checkpoint. With
 * the write-ahead log every reported block is logged before it is acknowledged; after a driver restart, batches
 * that run again take exactly the logged blocks they took before, and the logs are cleaned by what no batch a
 * restart could run again needs.
 */
final class ReceivedBlocks {
    private static final String POSITION_VERSION = "blocks-v1";

    private final String source;
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

    /** @param source names the stream in errors */
    ReceivedBlocks(String source) {
        this.source = source;
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
            } catch (IOException e) {
                // nothing more will be written
            }
        }
    }

    synchronized boolean hasLog() {
        return metadata != null;
    }

    /**
     * Records a reported block (logging it first, with the log on), numbered after every block before it; returns
     * it once it is safe.
     */
    synchronized ReceivedBlock add(Messages.AddBlock m, Time now) throws IOException {
        ReceivedBlock block = new ReceivedBlock(m.uniqueId(), m.records(), m.skipped(), m.repaired(), m.firstProblem(),
                m.walRecord(), nextSequence++, m.writeTime());
        if (metadata != null) {
            metadata.append(block, now);
        }
        unallocated.add(block);
        return block;
    }

    /**
     * The blocks of batch {@code time}: those it took before a driver restart if it runs again, else every
     * block reported and not taken so far.
     */
    synchronized List<ReceivedBlock> allocate(Time time) {
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
    synchronized List<ReceivedBlock> drain() {
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
    synchronized boolean cleaningDue(Time threshold, Duration every) {
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
    synchronized void cleanLog(Time threshold) throws IOException {
        if (metadata != null) {
            metadata.clean(threshold);
        }
    }

    /** Forgets positions of batches up to {@code time}. */
    synchronized void forgetUpTo(Time time) {
        lastSequenceAt.forgetBefore(time);
    }

    /** Whether blocks wait for a batch. */
    synchronized boolean hasUnallocated() {
        return !unallocated.isEmpty();
    }
}
