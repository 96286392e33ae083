package io.sluice.dstream;

import static io.sluice.dstream.SourcesTesting.awaitReceived;
import static io.sluice.dstream.SourcesTesting.receiverOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.receiver.ReceiverContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.testing.ReceiverEvents;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.spark.SparkEnv;
import org.apache.spark.serializer.SerializationStream;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import scala.collection.mutable.ArrayBuffer;
import scala.reflect.ClassTag$;

/**
 * The forms of Spark Streaming's {@code Receiver} API that a ported program uses: {@code store} of serialized
 * bytes, of iterators, lists and {@code ArrayBuffer}s with and without metadata, and {@code restart} with a delay
 * in milliseconds. Each must deliver its records to the batch.
 */
class ReceiverDropInTest {

    /** First start: 1..12 through every bulk form, then a restart after 10 ms; second start: 13. */
    static final class SparkStyleReceiver extends Receiver<Integer> {
        static final AtomicInteger STARTS = new AtomicInteger();

        SparkStyleReceiver() {
            super(StorageLevel.MEMORY_ONLY());
        }

        @Override
        public void onStart() {
            int start = STARTS.incrementAndGet();
            Thread t = new Thread(() -> {
                if (start == 1) {
                    store(serialized(1, 2));
                    store(serialized(3, 4), "offsets 3-4");
                    store(List.of(5, 6).iterator(), "offsets 5-6");
                    store(List.of(7, 8), "offsets 7-8");
                    store(buffer(9, 10));
                    store(buffer(11, 12), "offsets 11-12");
                    restart("scripted restart", new IllegalStateException("connection reset"), 10);
                } else if (start == 2) {
                    store(13);
                }
            });
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void onStop() {
        }

        /** As a Spark Streaming receiver makes them: a serialization stream of the context's serializer. */
        private static ByteBuffer serialized(int... records) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            SerializationStream out = SparkEnv.get().serializer().newInstance().serializeStream(bytes);
            for (int r : records) {
                out.writeObject(r, ClassTag$.MODULE$.apply(Integer.class));
            }
            out.close();
            return ByteBuffer.wrap(bytes.toByteArray());
        }

        private static ArrayBuffer<Integer> buffer(int... records) {
            ArrayBuffer<Integer> buffer = new ArrayBuffer<>();
            for (int r : records) {
                buffer.addOne(r);
            }
            return buffer;
        }
    }

    @Test
    void everySparkStoreFormDeliversItsRecordsAndRestartTakesMilliseconds() throws Exception {
        SparkStyleReceiver.STARTS.set(0);
        try (StreamTester t = new StreamTester()) {
            t.context().conf(SourceSettings.RESTART_DELAY, "5s"); // the backoff; the receiver asks for 10 ms
            ReceiverEvents events = new ReceiverEvents();
            t.context().addStreamingListener(events);
            DStream<Integer> stream = t.context().receiverStream(new SparkStyleReceiver());
            Collected<Integer> out = t.collect(stream);
            t.runBatches(0);
            awaitReceived(stream, 13, 0);
            BatchInfo batch = t.runBatches(1).get(0);
            assertEquals(List.of(Collected.multiset(IntStream.rangeClosed(1, 13).boxed().toList())), out.unordered());
            assertEquals(13, batch.numRecords());
            assertEquals(1, receiverOf(stream).reconnects());
            events.await("reconnected");
            assertTrue(events.all().stream().map(StreamingListener.ReceiverEvent::message)
                    .anyMatch(m -> m.contains("scripted restart") && m.contains("connection reset")
                            && m.contains("restarting in 10 ms")), events.all().toString());
        }
    }

    /** A context of the test's own: what a receiver's Spark-style calls reach, without Spark. */
    static final class RecordingContext implements ReceiverContext<String> {
        final List<String> calls = new ArrayList<>();

        @Override
        public void store(String record) {
            calls.add("record " + record);
        }

        @Override
        public void store(Iterator<String> records) {
            List<String> block = new ArrayList<>();
            records.forEachRemaining(block::add);
            calls.add("block " + block);
        }

        @Override
        public void store(ByteBuffer bytes) {
            calls.add("bytes " + bytes.remaining());
        }

        @Override
        public void reportBadRecord(String reason) {
            calls.add("bad " + reason);
        }

        @Override
        public void reportRepairedRecord(String position) {
            calls.add("repaired " + position);
        }

        @Override
        public void reportError(String message, Throwable error) {
            calls.add("error " + message);
        }

        @Override
        public void restart(String message, Throwable error, Duration delay) {
            calls.add("restart " + message + " " + error.getMessage() + " " + delay);
        }

        @Override
        public void stop(String message, Throwable error) {
            calls.add("stop " + message);
        }

        @Override
        public boolean isStarted() {
            return true;
        }

        @Override
        public boolean isStopped() {
            return false;
        }

        @Override
        public int streamId() {
            return 7;
        }
    }

    static final class Lines extends Receiver<String> {
        @Override
        public void onStart() {
            ArrayBuffer<String> buffer = new ArrayBuffer<>();
            buffer.addOne("c");
            store("a");
            store(List.of("b"), 1L);
            store(buffer, "meta");
            store(ByteBuffer.wrap(new byte[3]), "meta");
            restart("again", new IllegalStateException("lost"), 250);
        }

        @Override
        public void onStop() {
        }
    }

    @Test
    void aReceiverBoundToAContextOfItsOwnRunsWithoutSpark() {
        Lines receiver = new Lines();
        RecordingContext context = new RecordingContext();
        assertTrue(receiver.isStopped(), "an unbound receiver is stopped");
        receiver.bind(context);
        receiver.onStart();
        assertEquals(List.of("record a", "block [b]", "block [c]", "bytes 3", "restart again lost PT0.25S"),
                context.calls);
        assertEquals(7, receiver.streamId());
    }
}
