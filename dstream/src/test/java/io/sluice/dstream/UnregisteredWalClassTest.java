package io.sluice.dstream;

import static io.sluice.dstream.SourcesTesting.receiverOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener.ReceiverEvent;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.testing.ReceiverEvents;
import io.sluice.testkit.StreamTester;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the write-ahead log on, a receiver storing records of a class not registered with Kryo is stopped for
 * good (a restart cannot register the class) with an error naming the class and how to register it; listeners
 * hear it, and the stream's next batch fails, so awaitTermination reports it, as for any receiver stopped with
 * an error.
 */
class UnregisteredWalClassTest {
    @TempDir
    Path checkpoints;

    /** Not registered with Kryo. */
    record Reading(String sensor, double value) implements Serializable {
    }

    /** Stores readings, one by one or as blocks, and restarts itself when storing fails, as receivers do. */
    static final class Readings extends Receiver<Reading> {
        static final AtomicInteger STARTS = new AtomicInteger();
        private final boolean blocks;

        Readings(boolean blocks) {
            super(StorageLevel.MEMORY_ONLY());
            this.blocks = blocks;
        }

        @Override
        public void onStart() {
            STARTS.incrementAndGet();
            Thread t = new Thread(() -> {
                try {
                    while (!isStopped()) {
                        if (blocks) {
                            store(List.of(new Reading("a", 1), new Reading("b", 2)));
                        } else {
                            store(new Reading("a", 1));
                        }
                    }
                } catch (RuntimeException e) {
                    restart("storing failed", e);
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
    void aReceiverStoringAnUnregisteredClassStopsNamingItAndTheJobReportsIt() throws Exception {
        for (boolean blocks : List.of(true, false)) {
            Readings.STARTS.set(0);
            try (StreamTester t = new StreamTester()) {
                t.context().conf(SourceSettings.WRITE_AHEAD_LOG, "true").conf(SourceSettings.RESTART_DELAY, "1ms");
                t.context().checkpoint(checkpoints.resolve("blocks-" + blocks).toString());
                ReceiverEvents events = new ReceiverEvents();
                t.context().addStreamingListener(events);
                DStream<Reading> readings = t.context().receiverStream(new Readings(blocks)).name("readings");
                t.collect(readings.count());
                t.runBatches(0);
                String how = "spark.kryo.classesToRegister=" + Reading.class.getName();

                ReceiverEvent error = events.await("error");
                assertTrue(error.source().contains("readings") && error.message().contains(Reading.class.getName())
                        && error.message().contains(how), error.toString());
                assertTrue(receiverOf(readings).awaitFinished(SourcesTesting.WAIT), "the receiver stops for good");
                BatchInfo batch = t.runBatches(1).get(0);
                assertTrue(batch.failed(), "the stream's batch fails");
                String m = assertThrows(StreamingException.class,
                        () -> t.context().awaitTerminationOrTimeout(Duration.ZERO)).getMessage();
                assertTrue(m.contains("readings") && m.contains("batch " + batch.batchTime())
                        && m.contains(Reading.class.getName()) && m.contains(how), m);
                assertEquals(1, Readings.STARTS.get(), "started once, never restarted: " + events.all());
                assertFalse(events.all().stream().anyMatch(e -> e.kind().equals("reconnected")), events.all()
                        .toString());
            }
        }
    }
}
