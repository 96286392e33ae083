package io.sluice.dstream;

import io.sluice.dstream.testing.Failures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.testkit.StreamTester;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Output order within a batch, and how the context stops. */
class LifecycleTest {

    @Test
    void outputOperationsRunInRegistrationOrderOnOneJobThreadByDefault() {
        List<String> runs = Collections.synchronizedList(new ArrayList<>());
        Set<String> threads = ConcurrentHashMap.newKeySet();
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> s = t.input(List.of(List.of(1), List.of(2, 3), List.of()));
            for (int i = 0; i < 4; i++) {
                int id = i;
                s.foreachRDD((rdd, time) -> {
                    runs.add(time.milliseconds() + ":" + id + ":" + rdd.count());
                    threads.add(Thread.currentThread().getName());
                });
            }
            t.runBatches(3);
        }
        assertEquals(List.of("1000:0:1", "1000:1:1", "1000:2:1", "1000:3:1", "2000:0:2", "2000:1:2", "2000:2:2",
                "2000:3:2", "3000:0:0", "3000:1:0", "3000:2:0", "3000:3:0"), runs);
        assertEquals(1, threads.size(), "sluice.concurrentJobs defaults to 1: " + threads);
    }

    @Test
    void gracefulStopLetsTheRunningBatchFinish() throws Exception {
        Thread main = Thread.currentThread();
        CountDownLatch entered = new CountDownLatch(1);
        List<String> written = Collections.synchronizedList(new ArrayList<>());
        List<Long> completed = Collections.synchronizedList(new ArrayList<>());
        StreamTester t = new StreamTester();
        t.context().addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted e) {
                completed.add(e.batchInfo().batchTime().milliseconds());
            }
        });
        t.input(List.of(List.of("a", "b"), List.of("c"))).foreachRDD((rdd, time) -> {
            entered.countDown();
            // Finish only once the main thread waits inside stop(): a forced stop would interrupt us first.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (main.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            written.addAll(rdd.collect());
        });
        t.runBatches(0);
        t.clock().setTime(1000);
        assertTrue(entered.await(60, TimeUnit.SECONDS));
        t.context().stop(false, true);
        assertEquals(StreamingContextState.STOPPED, t.context().getState());
        assertEquals(List.of("a", "b"), written, "the batch running at stop() finished");
        assertEquals(List.of(1000L), completed, "its completion was delivered before stop() returned");
        t.close(); // a second stop is harmless
    }

    @Test
    void gracefulStopPastItsTimeoutCancelsTheBatchBeforeReturning() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        StreamTester t = new StreamTester();
        t.context().conf(Settings.GRACEFUL_STOP_TIMEOUT, "200ms");
        t.input(List.of(List.of(1))).foreachRDD(rdd -> {
            entered.countDown();
            try {
                new CountDownLatch(1).await(); // never finishes by itself
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        });
        t.runBatches(0);
        t.clock().setTime(1000);
        assertTrue(entered.await(60, TimeUnit.SECONDS));
        t.context().stop(false, true);
        // stop() returned: the job thread must already have been interrupted, so that a caller stopping the
        // SparkContext next does not pull it out from under a running output operation.
        assertEquals(0, interrupted.getCount(), "the overdue output operation was cancelled before stop returned");
        assertEquals(StreamingContextState.STOPPED, t.context().getState());
    }

    @Test
    void forcedStopInterruptsTheRunningOutput() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        StreamTester t = new StreamTester();
        t.input(List.of(List.of(1))).foreachRDD(rdd -> {
            entered.countDown();
            try {
                new CountDownLatch(1).await(); // blocks until the stop interrupts it
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        });
        t.runBatches(0);
        t.clock().setTime(1000);
        assertTrue(entered.await(60, TimeUnit.SECONDS));
        long began = System.nanoTime();
        t.context().stop(false, false);
        assertReturnedWellWithinTheGracefulTimeout(began);
        assertTrue(interrupted.await(30, TimeUnit.SECONDS), "the job thread was interrupted");
        assertEquals(StreamingContextState.STOPPED, t.context().getState());
        assertTrue(t.context().awaitTerminationOrTimeout(Duration.ofSeconds(1)),
                "a job cancelled by stop() is not an application failure");
    }

    private static final CountDownLatch TASK_ENTERED = new CountDownLatch(1); // tasks run in this JVM (local mode)
    private static final CountDownLatch TASK_INTERRUPTED = new CountDownLatch(1);

    @Test
    void forcedStopCancelsTheRunningSparkJobAndInterruptsItsTask() throws Exception {
        StreamTester t = new StreamTester();
        t.input(List.of(List.of(1))).foreachRDD(rdd -> rdd.foreach(x -> {
            TASK_ENTERED.countDown();
            try {
                new CountDownLatch(1).await(); // blocks until the job is cancelled
            } catch (InterruptedException e) {
                TASK_INTERRUPTED.countDown();
                throw e;
            }
        }));
        t.runBatches(0);
        t.clock().setTime(1000);
        assertTrue(TASK_ENTERED.await(60, TimeUnit.SECONDS));
        t.context().stop(false, false);
        assertTrue(TASK_INTERRUPTED.await(30, TimeUnit.SECONDS), "the batch's Spark job was cancelled, its task "
                + "interrupted");
        assertEquals(StreamingContextState.STOPPED, t.context().getState());
    }

    /** The default graceful timeout is 10 batch intervals (10 s here); the stops above must not wait it out. */
    private static void assertReturnedWellWithinTheGracefulTimeout(long beganNanos) {
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - beganNanos);
        assertTrue(ms < 7_000, "stop() took " + ms + " ms");
    }

    @Test
    void aBatchFailingDuringAGracefulStopEndsTheStopAndIsReported() throws Exception {
        Thread main = Thread.currentThread();
        CountDownLatch entered = new CountDownLatch(1);
        StreamTester t = new StreamTester();
        t.input(List.of(List.of(1))).foreachRDD(rdd -> {
            entered.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (main.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            throw new IllegalStateException("sink rejected the batch");
        });
        t.runBatches(0);
        t.clock().setTime(1000);
        assertTrue(entered.await(60, TimeUnit.SECONDS));
        long began = System.nanoTime();
        t.context().stop(false, true);
        assertReturnedWellWithinTheGracefulTimeout(began);
        // the foreachRDD's own exception, as Spark Streaming throws it, naming the output and batch beside
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> t.context().awaitTerminationOrTimeout(Duration.ofSeconds(1)));
        assertEquals("sink rejected the batch", e.getMessage());
        assertTrue(Failures.naming(e).contains("batch 1000 ms"), Failures.naming(e));
    }

    @Test
    void awaitTerminationReturnsAfterStopAndStoppingTwiceIsHarmless() throws Exception {
        StreamTester t = new StreamTester();
        t.collect(t.input(List.of(List.of(1))));
        t.runBatches(1);
        assertFalse(t.context().awaitTerminationOrTimeout(Duration.ofMillis(20)), "still running");
        AtomicReference<Object> waiterResult = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                t.context().awaitTermination();
                waiterResult.set("returned");
            } catch (Throwable e) {
                waiterResult.set(e);
            }
        });
        waiter.start();
        t.context().stop(false);
        waiter.join(TimeUnit.SECONDS.toMillis(30));
        assertEquals("returned", waiterResult.get());
        t.context().stop(false);
        t.context().stop(false, true);
        assertTrue(t.context().awaitTerminationOrTimeout(Duration.ofMillis(1)));
        assertEquals(StreamingContextState.STOPPED, t.context().getState());
        assertFalse(t.sparkContext().sc().isStopped(), "stop(false) leaves the SparkContext running");
    }
}
