package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.Clock;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.SourceContext;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import io.sluice.state.StateSpec;
import io.sluice.testkit.ManualClock;
import io.sluice.testkit.SharedSpark;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/** Offset ranges saved in the checkpoint: a restarted driver reads every record once. */
class ExactlyOnceRestartTest {
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static TestBroker broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() throws IOException {
        broker = new TestBroker();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    /** One run of a word count into mapWithState: getOrCreate on a manual clock, driven batch by batch. */
    private final class Run implements AutoCloseable {
        final ManualClock clock;
        final StreamingContext context;
        final BlockingQueue<BatchInfo> completed = new LinkedBlockingQueue<>();
        final AtomicReference<Map<String, Long>> counts = new AtomicReference<>(Map.of());
        final java.util.concurrent.atomic.AtomicLong records = new java.util.concurrent.atomic.AtomicLong();

        Run(long clockStart) {
            clock = new ManualClock(clockStart);
            context = StreamingContext.getOrCreate(dir.resolve("checkpoint").toString(), () -> {
                StreamingContext c = StreamingContext.create(SharedSpark.context(), INTERVAL, clock);
                KafkaUtils.createDirectStream(c, LocationStrategies.PreferConsistent(),
                        ConsumerStrategies.<String, String>Subscribe(List.of("words"), broker.consumerParams("words")))
                        .mapToPair(r -> new Tuple2<>(r.value(), 1L))
                        .mapWithState(StateSpec.<String, Long, Long, Long>function((word, one, state) -> {
                            long n = state.getOption().orElse(0L) + one.orElse(0L);
                            state.update(n);
                            return n;
                        }))
                        .stateSnapshots()
                        // collect(): collectAsMap() on this RDD fails (ClassCastException on its element type)
                        .foreachRDD(rdd -> {
                            Map<String, Long> snapshot = new HashMap<>();
                            rdd.collect().forEach(kv -> snapshot.put(kv._1(), kv._2()));
                            counts.set(snapshot);
                        });
                return c;
            });
            context.addStreamingListener(new StreamingListener() {
                @Override
                public void onBatchCompleted(BatchCompleted event) {
                    records.addAndGet(event.batchInfo().numRecords());
                    completed.add(event.batchInfo());
                }
            });
            context.start();
        }

        void awaitThrough(long last) throws InterruptedException {
            List<Long> times = new ArrayList<>();
            while (!times.contains(last)) {
                BatchInfo info = completed.poll(60, TimeUnit.SECONDS);
                if (info == null) {
                    throw new AssertionError("batch " + last + " did not complete; completed " + times);
                }
                assertTrue(!info.failed(), "batch " + info.batchTime() + " failed");
                times.add(info.batchTime().milliseconds());
            }
        }

        void advanceTo(long ms) throws InterruptedException {
            clock.setTime(ms);
            awaitThrough(ms);
        }

        @Override
        public void close() {
            context.stop(false, false);
        }
    }

    /** {@code n} words over {@code keys} keys, half to each partition; adds them to {@code expected}. */
    private static void write(int n, int keys, int seed, Map<String, Long> expected) {
        List<String> words = IntStream.range(0, n).mapToObj(i -> "w" + ((i * 7 + seed) % keys)).toList();
        broker.send("words", 0, words.subList(0, n / 2));
        broker.send("words", 1, words.subList(n / 2, n));
        words.forEach(w -> expected.merge(w, 1L, Long::sum));
    }

    @Test
    void aWordCountRestartedFromItsCheckpointCountsEveryRecordOnce() throws Exception {
        broker.createTopic("words", 2);
        Map<String, Long> expected = new HashMap<>();
        write(40, 5, 0, expected);
        try (Run first = new Run(0)) {
            first.advanceTo(1000);
            write(30, 7, 1, expected);
            first.advanceTo(2000);
            write(20, 3, 2, expected);
            first.advanceTo(3000);
            write(10, 5, 3, expected); // written after the last batch before the stop: read after the restart
            assertEquals(90, first.records.get());
        }
        write(25, 6, 4, expected); // while the driver is down
        try (Run second = new Run(5500)) { // batches 4 s and 5 s were missed
            assertEquals(Optional.of(new Time(3000)), second.context.recoveredBatch());
            second.awaitThrough(5000);
            write(15, 4, 5, expected);
            second.advanceTo(6000);
            assertEquals(50, second.records.get(), "the restarted run reads only what the first did not");
            assertEquals(expected, second.counts.get());
        }
    }

    @Test
    void batchesRunAgainAfterARestartReadTheSameRangesAsBefore() {
        broker.createTopic("replayed", 1);
        broker.send("replayed", 0, IntStream.range(0, 10).mapToObj(i -> "v" + i).toList());
        NavigableMap<Time, String> saved = new TreeMap<>(Map.of(
                new Time(1000), RangesText.encode(new OffsetRange[] {OffsetRange.create("replayed", 0, 0, 2)}),
                new Time(2000), RangesText.encode(new OffsetRange[] {OffsetRange.create("replayed", 0, 2, 3)})));
        DirectKafkaSource<String, String> source = KafkaUtils.createDirectSource(LocationStrategies.PreferConsistent(),
                ConsumerStrategies.<String, String>Subscribe(List.of("replayed"), broker.consumerParams("replayed")));
        source.start(new RestoredContext(saved));
        try {
            assertEquals(List.of("v2"), values(source.compute(new Time(2000)))); // the pending batch, as before
            assertEquals(List.of(OffsetRange.create("replayed", 0, 2, 3)),
                    Arrays.asList(RangesText.decode(source.positionAfter(new Time(2000)).orElseThrow())));
            assertEquals(IntStream.range(3, 10).mapToObj(i -> "v" + i).toList(),
                    values(source.compute(new Time(3000))));
        } finally {
            source.stop(false);
        }
    }

    private static List<String> values(Optional<JavaRDD<ConsumerRecord<String, String>>> rdd) {
        return rdd.orElseThrow().map(ConsumerRecord::value).collect();
    }

    /** The context a restarted engine gives a source: the saved positions, 1 s batches from 0. */
    private record RestoredContext(NavigableMap<Time, String> restoredPositions) implements SourceContext {
        @Override
        public JavaSparkContext sparkContext() {
            return SharedSpark.context();
        }

        @Override
        public BatchGrid grid() {
            return new BatchGrid(new Time(0), INTERVAL);
        }

        @Override
        public Clock clock() {
            return new ManualClock();
        }

        @Override
        public String name() {
            return "directKafkaSource at test";
        }

        @Override
        public String id() {
            return "kafka-0";
        }

        @Override
        public Optional<String> setting(String key) {
            return Optional.empty();
        }

        @Override
        public Optional<String> checkpointDirectory() {
            return Optional.empty();
        }

        @Override
        public void addStreamingListener(StreamingListener listener) {
        }
    }
}
