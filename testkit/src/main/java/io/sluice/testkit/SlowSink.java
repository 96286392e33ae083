package io.sluice.testkit;

import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A sink whose work takes virtual time, for testing backpressure deterministically on a {@link ManualClock}.
 * Only two parties move the clock: the sink, which "processes" a batch by advancing the clock by the batch's
 * cost, and {@link #run}, which moves it to the next batch time only when every submitted batch completed. When
 * the sink runs past batch boundaries, those batches are generated while it runs and wait: a real scheduling
 * delay, measured on the same clock.
 *
 * <p>What makes it deterministic: (1) when the sink advances the clock past boundaries, it waits until the
 * scheduler has submitted those batches before it returns, so batch generation and job completion interleave
 * in one fixed order; (2) before it starts, the sink waits until the previous batch's completion was delivered
 * to listeners; the engine's rate controller is registered when the context starts, before this listener (add
 * it after {@code start()}), so by then the rate it computed is in force; (3) {@link #run} advances the clock
 * only when every submitted batch has completed. The rate a batch gets is a function of the earlier batches
 * alone, whatever the threads' timing.
 */
public final class SlowSink implements StreamingListener {
    private static final long NO_PROGRESS_NANOS = 60_000_000_000L;

    private final ManualClock clock;
    private final long intervalMillis;
    private final BatchGrid grid; // the batch interval's, from the epoch, as the context's batches fall
    private final int batches;
    private final TreeMap<Long, BatchInfo> completed = new TreeMap<>();
    private long submitted;
    private long newestSubmitted = Long.MIN_VALUE;

    /** A sink for a context on {@code clock} with batches every {@code interval}; {@link #run} runs {@code batches}. */
    public SlowSink(ManualClock clock, Duration interval, int batches) {
        this.clock = clock;
        this.intervalMillis = interval.toMillis();
        this.grid = BatchGrid.ofEpoch(interval);
        this.batches = batches;
    }

    /**
     * Processes batch {@code time} (call it in the sink's {@code foreachRDD}): waits until the previous batch's
     * completion was delivered, then advances the clock by {@code cost} (whole milliseconds) and waits until the
     * batches whose times it passed were submitted.
     */
    public void process(Time time, Duration cost) throws InterruptedException {
        long t = time.milliseconds();
        if (t > intervalMillis) {
            awaitCompleted(t - intervalMillis);
        }
        clock.advance(cost.truncatedTo(ChronoUnit.MILLIS));
        awaitSubmittedUpTo(latestBatchTime());
    }

    /** The latest batch time the clock has reached. */
    private long latestBatchTime() {
        return grid.floor(new Time(clock.millis())).milliseconds();
    }

    /**
     * Registers this sink on the started {@code context} and runs it until {@code batches} batches completed,
     * moving the clock to the next batch time whenever every submitted batch completed (without backpressure the
     * job may never idle: then it runs on what the sink's overruns submit). Returns the first {@code batches}
     * batches, in time order; stops the context (not its SparkContext).
     */
    public List<BatchInfo> run(StreamingContext context) throws InterruptedException {
        context.addStreamingListener(this);
        try {
            while (true) {
                awaitIdle();
                synchronized (this) {
                    if (completed.size() >= batches) {
                        break;
                    }
                }
                clock.setTime(grid.next(new Time(clock.millis())).milliseconds());
                awaitSubmittedUpTo(latestBatchTime());
            }
        } finally {
            context.stop(false, false);
        }
        synchronized (this) {
            return new ArrayList<>(completed.values()).subList(0, batches);
        }
    }

    @Override
    public synchronized void onBatchSubmitted(BatchSubmitted e) {
        submitted++;
        newestSubmitted = Math.max(newestSubmitted, e.batchInfo().batchTime().milliseconds());
        notifyAll();
    }

    @Override
    public synchronized void onBatchCompleted(BatchCompleted e) {
        completed.put(e.batchInfo().batchTime().milliseconds(), e.batchInfo());
        notifyAll();
    }

    private synchronized void awaitSubmittedUpTo(long time) throws InterruptedException {
        while (newestSubmitted < time) {
            waitABit();
        }
    }

    private synchronized void awaitCompleted(long time) throws InterruptedException {
        while (!completed.containsKey(time)) {
            waitABit();
        }
    }

    /** Until every submitted batch completed, or enough batches did. */
    private synchronized void awaitIdle() throws InterruptedException {
        while (completed.size() < submitted && completed.size() < batches) {
            waitABit();
        }
    }

    private void waitABit() throws InterruptedException {
        long before = System.nanoTime();
        wait(60_000);
        if (System.nanoTime() - before >= NO_PROGRESS_NANOS) {
            throw new AssertionError("no progress within 60 s; completed " + completed.keySet());
        }
    }

    /** The batches as a table (time, records, delays), for a test to print. */
    public static String table(String title, List<BatchInfo> batches) {
        StringBuilder table = new StringBuilder(title).append("\nbatch(s) records sched.delay(ms) processing(ms)\n");
        for (BatchInfo b : batches) {
            table.append(String.format("%8d %7d %14d %14d%n", b.batchTime().milliseconds() / 1000, b.numRecords(),
                    b.schedulingDelay(), b.processingDelay()));
        }
        return table.toString();
    }
}
