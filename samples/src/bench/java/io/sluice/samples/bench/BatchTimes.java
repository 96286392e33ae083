package io.sluice.samples.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Processing times of completed batches as a side's listener reports them; the benchmark waits on it. */
final class BatchTimes {
    private final List<Long> processingMillis = new ArrayList<>();
    private final CountDownLatch done;
    private volatile String failure;

    BatchTimes(int batches) {
        this.done = new CountDownLatch(batches);
    }

    /** Called by a listener when a batch completed; {@code failure} is null when every output succeeded. */
    synchronized void completed(long processingMs, String failure) {
        if (failure != null && this.failure == null) {
            this.failure = failure;
            while (done.getCount() > 0) {
                done.countDown();
            }
        }
        processingMillis.add(processingMs);
        done.countDown();
    }

    /** Waits until the expected number of batches completed, or one failed. */
    void await(Duration timeout) throws InterruptedException, TimeoutException {
        if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new TimeoutException("only " + completedCount() + " batches completed within " + timeout);
        }
        if (failure != null) {
            throw new IllegalStateException("a batch failed: " + failure);
        }
    }

    synchronized int completedCount() {
        return processingMillis.size();
    }

    /** The processing times of batches {@code warmup} .. {@code batches - 1}, in batch order. */
    synchronized List<Long> counted(int warmup, int batches) {
        return List.copyOf(processingMillis.subList(warmup, batches));
    }

    static double median(List<? extends Number> values) {
        double[] sorted = values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }
}
