package io.sluice.dstream;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.internal.receiver.TrackedReceiver;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.BlockStore;
import io.sluice.testkit.ManualClock;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The job of {@code OverloadTest}, run in its own JVM with a small heap: a socket text stream from the test's
 * server into a sink that counts the lines and sums their ids (the first 12 characters). Processing is slower
 * than ingestion by construction: the job's clock is manual, and a batch runs only once the receiver has
 * buffered at least half its default bound (or received every line), so the receiver is always ahead and
 * pauses at its bound again and again. Prints one line per batch and then {@code done <lines> <id sum> <peak
 * heap bytes> <most buffered bytes> <bound> <most heap after a collection>}. Args: server port, lines the server sends.
 */
public final class OverloadApp {
    private static final Duration WAIT = Duration.ofMinutes(5);

    private OverloadApp() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long lines = Long.parseLong(args[1]);
        ManualClock clock = new ManualClock();
        Duration interval = Duration.ofSeconds(1);
        StreamingContext ssc = StreamingContext.builder().master("local[2]").appName("overload")
                .batchInterval(interval).clock(clock).conf("spark.ui.enabled", "false")
                .conf("spark.driver.host", "127.0.0.1").conf("spark.driver.bindAddress", "127.0.0.1").build();
        AtomicLong counted = new AtomicLong();
        AtomicLong idSum = new AtomicLong();
        AtomicLong afterGc = new AtomicLong();
        DStream<String> text = ssc.socketTextStream("127.0.0.1", port);
        text.foreachRDD((rdd, time) -> {
            long[] r = rdd.aggregate(new long[2], (a, line) -> {
                a[0]++;
                a[1] += Long.parseLong(line, 0, 12, 10);
                return a;
            }, (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
            counted.addAndGet(r[0]);
            idSum.addAndGet(r[1]);
            afterGc.accumulateAndGet(heapAfterGc(), Math::max);
            System.out.println("batch " + time.milliseconds() + " " + r[0] + " lines, heap peak " + heapPeak());
        });
        BlockingQueue<BatchInfo> completed = new LinkedBlockingQueue<>();
        ssc.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                completed.add(event.batchInfo());
            }
        });
        ssc.start();
        TrackedReceiver receiver = SourcesTesting.receiverOf(text);
        long bound = BlockStore.storageMemory() / 2; // the default of sluice.receiver.maxBufferedBytes
        System.out.println("started");
        BatchGrid grid = BatchGrid.startingAt(new Time(clock.millis()), interval);
        Time next = grid.first();
        int afterLast = 0;
        while (counted.get() < lines || afterLast < 2) { // two batches after the last line: nothing more comes
            if (counted.get() < lines && !receiver.awaitBuffered(bound / 2, lines, WAIT)) {
                fail(ssc, "the receiver buffered " + receiver.bufferedBytes() + " bytes and received "
                        + receiver.received() + " lines; it did not reach half its bound " + bound);
            }
            afterLast += counted.get() >= lines ? 1 : 0;
            clock.setTime(next.milliseconds());
            BatchInfo batch = completed.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
            if (batch == null || batch.failed() || receiver.failure() != null) {
                fail(ssc, "batch " + next + (batch == null ? " did not complete" : " failed: " + batch)
                        + "; receiver failure: " + receiver.failure());
            }
            next = grid.next(next);
        }
        System.out.println("done " + counted.get() + " " + idSum.get() + " " + heapPeak() + " "
                + receiver.maxBufferedBytes() + " " + bound + " " + afterGc.get());
        ssc.stop(true, false);
        System.exit(0);
    }

    /** The most the heap ever held: the sum of each heap pool's peak (an upper bound). */
    private static long heapPeak() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }

    /** The heap in use after the latest collection of each pool, as seen at a batch. */
    private static long heapAfterGc() {
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                used += pool.getCollectionUsage().getUsed();
            }
        }
        return used;
    }

    private static void fail(StreamingContext ssc, String why) {
        System.out.println("failed: " + why);
        ssc.stop(true, false);
        System.exit(2);
    }
}
