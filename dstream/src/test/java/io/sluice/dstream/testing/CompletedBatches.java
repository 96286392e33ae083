package io.sluice.dstream.testing;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.testkit.ManualClock;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs the batches of a context on a manual clock one at a time, for tests that build their context themselves
 * (getOrCreate over a checkpoint directory): add it as a listener before {@code start()}, then {@link #run} each
 * batch.
 */
public final class CompletedBatches implements StreamingListener {
    private final BlockingQueue<BatchInfo> completed = new LinkedBlockingQueue<>();

    @Override
    public void onBatchCompleted(BatchCompleted event) {
        completed.add(event.batchInfo());
    }

    /**
     * Sets {@code clock} to {@code batchMillis} and waits for that batch to complete; fails unless the next batch
     * completed is that one, without failure.
     */
    public BatchInfo run(ManualClock clock, long batchMillis) throws InterruptedException {
        clock.setTime(batchMillis);
        BatchInfo info = completed.poll(120, TimeUnit.SECONDS);
        if (info == null || info.batchTime().milliseconds() != batchMillis || info.failed()) {
            throw new AssertionError("batch " + batchMillis + " completed: " + info);
        }
        return info;
    }
}
