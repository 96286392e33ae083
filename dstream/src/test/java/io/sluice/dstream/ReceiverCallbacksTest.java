package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.scheduler.ReceiverInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.testkit.StreamTester;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;

/**
 * Spark Streaming's receiver callbacks (onReceiverStarted, onReceiverError, onReceiverStopped) with their
 * ReceiverInfo, as JavaStreamingListenerAPISuite uses them: fed by the same events as onReceiverEvent.
 */
class ReceiverCallbacksTest {
    /** Stores a record, reports an error, and stops: one of each callback. */
    static final class OneShotReceiver extends Receiver<String> {
        private static final long serialVersionUID = 1L;

        OneShotReceiver() {
            super(StorageLevel.MEMORY_ONLY());
        }

        @Override
        public void onStart() {
            Thread worker = new Thread(() -> {
                store("only record");
                reportError("disk full", new IOException("no space left on the device"));
                stop("nothing more to read");
            }, "one-shot-receiver");
            worker.setDaemon(true);
            worker.start();
        }

        @Override
        public void onStop() {
        }
    }

    private static final class Callbacks implements StreamingListener {
        final BlockingQueue<String> order = new LinkedBlockingQueue<>();
        final List<ReceiverInfo> infos = new CopyOnWriteArrayList<>();
        final List<ReceiverEvent> events = new CopyOnWriteArrayList<>();

        @Override
        public void onReceiverEvent(ReceiverEvent event) {
            events.add(event);
        }

        @Override
        public void onReceiverStarted(ReceiverStarted started) {
            infos.add(started.receiverInfo());
            order.add("started");
        }

        @Override
        public void onReceiverError(ReceiverError error) {
            infos.add(error.receiverInfo());
            order.add("error");
        }

        @Override
        public void onReceiverStopped(ReceiverStopped stopped) {
            infos.add(stopped.receiverInfo());
            order.add("stopped");
        }

        List<String> awaitThree() throws InterruptedException {
            List<String> seen = new java.util.ArrayList<>();
            while (seen.size() < 3) {
                String next = order.poll(60, TimeUnit.SECONDS);
                assertNotNull(next, "receiver callbacks within 60 s; saw " + seen + ", events " + events);
                seen.add(next);
            }
            return seen;
        }
    }

    @Test
    void startedErrorAndStoppedCarryTheReceiversInfo() throws Exception {
        try (StreamTester t = new StreamTester()) {
            Callbacks callbacks = new Callbacks();
            t.context().addStreamingListener(callbacks);
            t.collect(t.context().receiverStream(new OneShotReceiver()));
            t.runBatches(0);
            assertEquals(List.of("started", "error", "stopped"), callbacks.awaitThree());

            ReceiverInfo started = callbacks.infos.get(0);
            assertTrue(started.name().contains("receiverStream at ReceiverCallbacksTest.java"), started.name());
            assertTrue(started.active());
            assertEquals("driver", started.executorId()); // local mode: the driver's executor
            assertFalse(started.location().isEmpty(), "the host the receiver registered from");
            assertEquals("", started.lastErrorMessage());
            assertEquals(-1, started.lastErrorTime());

            ReceiverInfo error = callbacks.infos.get(1);
            assertTrue(error.active(), "an error it reported does not stop it");
            assertTrue(error.lastErrorMessage().contains("disk full"), error.lastErrorMessage());
            assertTrue(error.lastError().startsWith("java.io.IOException: no space left on the device")
                    && error.lastError().contains("\tat "), error.lastError()); // the stack trace, as Spark gives
            assertEquals(t.clock().millis(), error.lastErrorTime());

            ReceiverInfo stopped = callbacks.infos.get(2);
            assertFalse(stopped.active());
            assertEquals(error.lastErrorMessage(), stopped.lastErrorMessage(), "the last error is kept");
            assertEquals(started.streamId(), stopped.streamId());

            assertEquals(List.of("started", "error", "stopped"), callbacks.events.stream()
                    .map(StreamingListener.ReceiverEvent::kind).toList());
            assertEquals(callbacks.infos, callbacks.events.stream()
                    .map(StreamingListener.ReceiverEvent::receiverInfo).toList());
        }
    }
}
