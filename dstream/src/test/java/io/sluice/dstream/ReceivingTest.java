package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.Receiving;
import io.sluice.dstream.source.SourceContext;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.Time;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/**
 * A user's source that receives on its own exposes it through the public SPI ({@link InputSource#receiving()}),
 * as the built-in receiver streams do: the engine launches its receiving once every source started, stops it
 * first on a graceful stop, runs one more batch for what it handed over while stopping, and releases it after
 * that batch.
 */
class ReceivingTest {
    /** Records received into a queue that each batch drains; every call of the engine goes into {@code calls}. */
    static final class QueueReceiving implements InputSource<String>, Receiving {
        private final String name;
        private final List<String> calls;
        private final Queue<String> received = new ConcurrentLinkedQueue<>();
        private volatile JavaSparkContext sc;

        QueueReceiving(String name, List<String> calls) {
            this.name = name;
            this.calls = calls;
        }

        @Override
        public void start(SourceContext context) {
            sc = context.sparkContext();
            calls.add(name + " start");
        }

        @Override
        public Optional<Receiving> receiving() {
            return Optional.of(this);
        }

        @Override
        public Optional<JavaRDD<String>> compute(Time time) {
            List<String> batch = new ArrayList<>();
            for (String r = received.poll(); r != null; r = received.poll()) {
                batch.add(r);
            }
            calls.add(name + " batch " + batch);
            return Optional.of(sc.parallelize(batch, 1));
        }

        @Override
        public String receiverName() {
            return name;
        }

        @Override
        public void startReceiving() {
            calls.add(name + " startReceiving");
            received.add(name + "-first");
        }

        /** What it had buffered when asked to stop is handed over before it returns. */
        @Override
        public void stopReceiving(Duration timeout, boolean gracefully) {
            calls.add(name + " stopReceiving gracefully=" + gracefully);
            received.add(name + "-last");
        }

        @Override
        public boolean hasPendingInput() {
            return !received.isEmpty();
        }

        @Override
        public void release() {
            calls.add(name + " release");
        }

        @Override
        public Optional<String> executor() {
            return Optional.empty();
        }

        @Override
        public boolean moving() {
            return false;
        }

        @Override
        public boolean moveOff(String executorId, List<ExecutorLocation> to) {
            return false;
        }
    }

    @Test
    void theEngineDrivesASourcesReceivingThroughTheSpi() {
        List<String> calls = new CopyOnWriteArrayList<>();
        try (StreamTester t = new StreamTester()) {
            Collected<String> a = t.collect(t.context().inputStream(new QueueReceiving("a", calls)));
            Collected<String> b = t.collect(t.context().inputStream(new QueueReceiving("b", calls)));
            t.runBatches(1);
            t.context().stop(false, true);
            assertEquals(List.of(List.of("a-first"), List.of("a-last")), a.batches());
            assertEquals(List.of(List.of("b-first"), List.of("b-last")), b.batches());
        }
        assertEquals(List.of("a start", "b start", "a startReceiving", "b startReceiving",
                "a batch [a-first]", "b batch [b-first]",
                "a stopReceiving gracefully=true", "b stopReceiving gracefully=true",
                "a batch [a-last]", "b batch [b-last]", "a release", "b release"), calls);
    }
}
