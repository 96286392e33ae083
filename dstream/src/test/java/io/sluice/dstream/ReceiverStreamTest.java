package io.sluice.dstream;

import static io.sluice.dstream.SourcesTesting.awaitReceived;
import static io.sluice.dstream.SourcesTesting.receiverOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.testkit.Collected;
import io.sluice.dstream.testing.ReceiverEvents;
import io.sluice.testkit.StreamTester;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;

/**
 * receiverStream with user receivers: every form of store, restart and error reports, and a graceful stop
 * that processes everything received. The receivers run in this JVM (local master), so they signal the test
 * through static latches.
 */
class ReceiverStreamTest {

    /** First start: stores 1..6 with each form of store, reports an error, restarts; second start: stores 7. */
    static final class ScriptedReceiver extends Receiver<Integer> {
        static final AtomicInteger STARTS = new AtomicInteger();

        ScriptedReceiver() {
            super(StorageLevel.MEMORY_ONLY());
        }

        @Override
        public void onStart() {
            int start = STARTS.incrementAndGet();
            Thread t = new Thread(() -> {
                if (start == 1) {
                    store(1);
                    store(2);
                    store(List.of(3, 4));
                    store(List.of(5, 6).iterator());
                    reportError("a hiccup worth telling", new IllegalStateException("hiccup"));
                    restart("scripted restart");
                } else if (start == 2) {
                    store(7);
                }
            });
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void onStop() {
        }
    }

    @Test
    void everyStoreFormArrivesAndARestartIsCountedAndReported() throws Exception {
        ScriptedReceiver.STARTS.set(0);
        try (StreamTester t = new StreamTester()) {
            t.context().conf(SourceSettings.RESTART_DELAY, "10ms");
            ReceiverEvents events = new ReceiverEvents();
            t.context().addStreamingListener(events);
            DStream<Integer> stream = t.context().receiverStream(new ScriptedReceiver());
            Collected<Integer> out = t.collect(stream);
            t.runBatches(0);
            awaitReceived(stream, 7, 0);
            BatchInfo batch = t.runBatches(1).get(0);
            assertEquals(List.of(Collected.multiset(List.of(1, 2, 3, 4, 5, 6, 7))), out.unordered());
            assertEquals(7, batch.numRecords());
            assertEquals(1, receiverOf(stream).reconnects());
            assertEquals(2, ScriptedReceiver.STARTS.get());
            events.await("reconnected");
            assertTrue(events.all().stream().anyMatch(e -> e.kind().equals("error")
                    && e.message().contains("a hiccup worth telling")), events.all().toString());
        }
    }

    /** Stores {@link #COUNT} records one by one, as fast as it can, then signals. */
    static final class BurstReceiver extends Receiver<Integer> {
        static final int COUNT = 20_000;
        static volatile CountDownLatch stored = new CountDownLatch(1);

        BurstReceiver() {
            super(StorageLevel.MEMORY_ONLY());
        }

        @Override
        public void onStart() {
            Thread t = new Thread(() -> {
                for (int i = 0; i < COUNT; i++) {
                    store(i);
                }
                stored.countDown();
            });
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void onStop() {
        }
    }

    @Test
    void aGracefulStopProcessesEverythingReceivedBeforeStopping() throws Exception {
        BurstReceiver.stored = new CountDownLatch(1);
        try (StreamTester t = new StreamTester()) {
            // A long block interval: when stop() comes, the records are still in the receiver's current block.
            t.context().conf(SourceSettings.BLOCK_INTERVAL, "1h");
            DStream<Integer> stream = t.context().receiverStream(new BurstReceiver());
            List<Long> counts = new ArrayList<>();
            stream.count().foreachRDD(rdd -> counts.add(rdd.first()));
            t.runBatches(1);
            assertTrue(BurstReceiver.stored.await(60, TimeUnit.SECONDS), "the receiver did not store its records");
            assertEquals(0, receiverOf(stream).received(), "nothing reported yet: the block is still open");
            t.context().stop(false, true);
            assertEquals(BurstReceiver.COUNT, counts.stream().mapToLong(Long::longValue).sum(), counts.toString());
            assertEquals(2, counts.size(), "one timer batch and the final batch of the graceful stop: " + counts);
        }
    }

    @Test
    void storedRecordsAreRateLimitedToTheConfiguredMaximum() throws Exception {
        BurstReceiver.stored = new CountDownLatch(1);
        try (StreamTester t = new StreamTester()) {
            t.context().conf(SourceSettings.RECEIVER_MAX_RATE, "100000");
            DStream<Integer> stream = t.context().receiverStream(new BurstReceiver());
            t.collect(stream.count());
            t.runBatches(0);
            long start = System.nanoTime();
            assertTrue(BurstReceiver.stored.await(60, TimeUnit.SECONDS));
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            // 20,000 records at 100,000/s take at least 200 ms, less the 50 ms burst the limiter allows.
            assertTrue(tookMs >= 140, "stored 20,000 records in " + tookMs + " ms, faster than 100,000/s");
        }
    }
}
