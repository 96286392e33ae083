package io.sluice.dstream.source.internal.receiver;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * Cuts the records a receiver stores one at a time into blocks every block interval and hands each block to a
 * pusher thread, which stores it and reports it to the driver. What waits here to be stored counts in the
 * receiver's {@link BufferBound}: an element's bytes as it is added, where the element knows them, else the
 * block's estimated size as it is cut; the pusher's sink takes a block's bytes off once it stored it. The queue
 * between the two is also bounded in blocks, so {@link #add} waits when storing falls behind.
 */
final class BlockGenerator<T> {
    /** Stores one block and reports it; runs on the pusher thread. */
    interface BlockSink<T> {
        /**
         * @param count the records the block holds (an element may hold several: packed lines)
         * @param firstProblem where the block's first skipped or repaired record was, null if none
         */
        void push(List<Object> elements, long count, long bytes, long skipped, long repaired, String firstProblem)
                throws Exception;

        /** Storing a block of {@code bytes} failed: it is dropped. */
        void pushFailed(long bytes, Exception e);
    }

    private record Block(List<Object> elements, long count, long bytes, long skipped, long repaired,
            String firstProblem, boolean last) {
    }

    private final Duration interval;
    private final long maxBlockBytes;
    private final BlockSink<T> sink;
    private final BufferBound bound;
    private final ToLongFunction<List<Object>> sizer;
    private final BlockingQueue<Block> queue;
    private final Thread ticker;
    private final Thread pusher;
    private final Object lock = new Object();
    private List<Object> buffer = new ArrayList<>();
    private long count;
    private long bytes;
    private long skipped;
    private long repaired;
    private String firstProblem;
    private volatile boolean stopped;

    /**
     * @param maxBlockBytes a block is cut early once its elements hold this many bytes (where known)
     * @param sizer estimates a block's bytes as it is cut when its elements did not tell theirs (null: they do)
     */
    BlockGenerator(String name, Duration interval, int queueSize, long maxBlockBytes, BufferBound bound,
            ToLongFunction<List<Object>> sizer, BlockSink<T> sink) {
        this.interval = interval;
        this.maxBlockBytes = maxBlockBytes;
        this.bound = bound;
        this.sizer = sizer;
        this.sink = sink;
        this.queue = new ArrayBlockingQueue<>(queueSize);
        this.ticker = new Thread(this::tick, "sluice-block-generator-" + name);
        this.pusher = new Thread(this::push, "sluice-block-pusher-" + name);
        ticker.setDaemon(true);
        pusher.setDaemon(true);
    }

    void start() {
        ticker.start();
        pusher.start();
    }

    void add(T record) {
        add(record, 1, 0);
    }

    /**
     * Adds one element that holds {@code records} records (packed lines hold many) of {@code elementBytes} bytes
     * (0 if not known). A block that reaches the byte limit is cut at once: fast input makes more blocks, not
     * bigger ones, and waits when the queue is full.
     */
    void add(Object element, int records, int elementBytes) {
        if (stopped) {
            throw new IllegalStateException("cannot store records: the receiver's block generator has stopped");
        }
        synchronized (lock) {
            buffer.add(element);
            count += records;
            bytes += elementBytes;
            bound.added(elementBytes);
            if (bytes >= maxBlockBytes) {
                try {
                    cut(false);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for room in the block queue", e);
                }
            }
        }
    }

    void addSkipped(String problem) {
        synchronized (lock) {
            skipped++;
            noteProblem(problem);
        }
    }

    void addRepaired(String problem) {
        synchronized (lock) {
            repaired++;
            noteProblem(problem);
        }
    }

    private void noteProblem(String problem) {
        if (firstProblem == null) {
            firstProblem = problem;
        }
    }

    /** Stops cutting blocks, then pushes what is buffered and queued; returns when all of it is reported. */
    void stopAndFlush() throws InterruptedException {
        if (stopped) {
            pusher.join();
            return;
        }
        stopped = true;
        ticker.interrupt();
        ticker.join();
        cut(true);
        pusher.join();
    }

    /** Stops without pushing what is left (the task was cancelled). */
    void abort() {
        stopped = true;
        ticker.interrupt();
        pusher.interrupt();
    }

    private void tick() {
        long next = System.nanoTime() + interval.toNanos();
        try {
            while (!stopped) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                next += interval.toNanos();
                cut(false);
            }
        } catch (InterruptedException e) {
            // stopping: stopAndFlush cuts the last block
        }
    }

    /**
     * Queues the buffered records as a block. It waits for room in the queue holding the lock, so that {@link
     * #add} waits too: the receiver stops reading instead of buffering without bound.
     */
    private void cut(boolean last) throws InterruptedException {
        synchronized (lock) {
            if (buffer.isEmpty() && skipped == 0 && repaired == 0 && !last) {
                return;
            }
            long blockBytes = bytes;
            if (sizer != null && !buffer.isEmpty()) {
                blockBytes = sizer.applyAsLong(buffer);
                bound.added(blockBytes - bytes);
            }
            try {
                queue.put(new Block(buffer, count, blockBytes, skipped, repaired, firstProblem, last));
            } catch (InterruptedException e) {
                // not queued: the records stay in the buffer, and the next cut (the last one, at a stop) counts
                // their estimate again
                bound.added(bytes - blockBytes);
                throw e;
            }
            buffer = new ArrayList<>();
            count = 0;
            bytes = 0;
            skipped = 0;
            repaired = 0;
            firstProblem = null;
        }
    }

    private void push() {
        try {
            while (true) {
                Block block = queue.take();
                if (!block.elements().isEmpty() || block.skipped() > 0) {
                    try {
                        sink.push(block.elements(), block.count(), block.bytes(), block.skipped(), block.repaired(),
                                block.firstProblem());
                    } catch (InterruptedException e) {
                        throw e;
                    } catch (Exception e) {
                        sink.pushFailed(block.bytes(), e);
                    }
                }
                if (block.last()) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            // aborted
        }
    }
}
