package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.testing.SharedSpark;
import io.sluice.rdd.Time;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * getOrCreate and driver restarts within one JVM (the kill tests in the recovery module crash real processes):
 * progress, missed batches, source positions, matching a rebuilt graph, and the file sink's exactly-once output.
 */
class RecoveryTest {
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    /** One run of an application: getOrCreate on a manual clock, driven batch by batch. */
    private final class Run implements AutoCloseable {
        final ManualClock clock;
        final StreamingContext context;
        final BlockingQueue<BatchInfo> completed = new LinkedBlockingQueue<>();

        Run(long clockStart, Consumer<StreamingContext> graph) {
            clock = new ManualClock(clockStart);
            context = StreamingContext.getOrCreate(dir.resolve("checkpoint").toString(), () -> {
                StreamingContext c = StreamingContext.create(SharedSpark.context(), INTERVAL, clock);
                graph.accept(c);
                return c;
            });
            context.addStreamingListener(new StreamingListener() {
                @Override
                public void onBatchCompleted(BatchCompleted event) {
                    completed.add(event.batchInfo());
                }
            });
            context.start();
        }

        /** Waits until the batches completed so far (in completion order) include {@code last}. */
        List<Long> awaitThrough(long last) throws InterruptedException {
            List<Long> times = new ArrayList<>();
            while (!times.contains(last)) {
                BatchInfo info = completed.poll(60, TimeUnit.SECONDS);
                if (info == null) {
                    throw new AssertionError("batch " + last + " did not complete; completed " + times);
                }
                assertTrue(!info.failed(), "batch " + info.batchTime() + " failed");
                times.add(info.batchTime().milliseconds());
            }
            return times;
        }

        List<Long> advanceTo(long ms) throws InterruptedException {
            clock.setTime(ms);
            return awaitThrough(ms);
        }

        @Override
        public void close() {
            context.stop(false, false);
        }
    }

    private void offsetsToFiles(StreamingContext c) {
        OffsetSource.stream(c, 5).saveAsTextFiles(dir.resolve("out/offsets").toString(), "txt");
    }

    /** Every output directory's lines, by batch time. */
    private TreeMap<Long, List<String>> outputs() throws IOException {
        TreeMap<Long, List<String>> result = new TreeMap<>();
        try (Stream<Path> batches = Files.list(dir.resolve("out"))) {
            for (Path batch : batches.toList()) {
                String name = batch.getFileName().toString();
                assertTrue(name.startsWith("offsets-"), "only committed batch directories are left: " + name);
                List<String> lines = new ArrayList<>();
                try (Stream<Path> parts = Files.list(batch)) {
                    for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
                        lines.addAll(Files.readAllLines(part));
                    }
                }
                lines.sort(java.util.Comparator.comparingLong(Long::parseLong));
                result.put(Long.parseLong(name.substring(8, name.length() - 4)), lines);
            }
        }
        return result;
    }

    private static List<String> range(long from, long to) {
        return java.util.stream.LongStream.range(from, to).mapToObj(String::valueOf).toList();
    }

    @Test
    void aRestartContinuesAfterTheLastCheckpointAndGeneratesTheBatchesItMissed() throws Exception {
        try (Run first = new Run(0, this::offsetsToFiles)) {
            assertEquals(Optional.empty(), first.context.recoveredBatch());
            first.advanceTo(1000);
            first.advanceTo(2000);
            first.advanceTo(3000);
        }
        try (Run second = new Run(6500, this::offsetsToFiles)) { // down for 4 s, 5 s and 6 s
            assertEquals(Optional.of(new Time(3000)), second.context.recoveredBatch());
            assertEquals(List.of(4000L, 5000L, 6000L), second.awaitThrough(6000));
            assertEquals(List.of(7000L), second.advanceTo(7000));
        }
        TreeMap<Long, List<String>> out = outputs();
        assertEquals(List.of(1000L, 2000L, 3000L, 4000L, 5000L, 6000L, 7000L), List.copyOf(out.keySet()));
        for (int b = 0; b < 7; b++) {
            assertEquals(range(5L * b, 5L * b + 5), out.get(1000L * (b + 1)), "batch " + (b + 1));
        }
    }

    @Test
    void missedBatchesCanBeSkipped() throws Exception {
        try (Run first = new Run(0, this::offsetsToFiles)) {
            first.advanceTo(1000);
        }
        SharedSpark.context().getConf(); // the setting is read from the SparkContext's conf
        String key = StreamingContext.SKIP_MISSED_BATCHES;
        SharedSpark.context().sc().conf().set(key, "true");
        try (Run second = new Run(4500, this::offsetsToFiles)) {
            assertEquals(List.of(5000L), second.advanceTo(5000));
        } finally {
            SharedSpark.context().sc().conf().remove(key);
        }
        TreeMap<Long, List<String>> out = outputs();
        assertEquals(List.of(1000L, 5000L), List.copyOf(out.keySet()));
        assertEquals(range(5, 10), out.get(5000L), "the source continues from its saved position");
    }

    @Test
    void aBatchWhoseOutputWasInterruptedRunsAgainAndReplacesItsStagingOutput() throws Exception {
        try (Run first = new Run(0, this::offsetsToFiles)) {
            first.advanceTo(1000);
            first.advanceTo(2000);
        }
        // A crash during batch 3 s, between writing and renaming its output, and before its checkpoint:
        Path staging = dir.resolve("out/.offsets-3000.txt.staging-crashed");
        Files.createDirectories(staging);
        Files.writeString(staging.resolve("part-00000"), "garbage\n");
        Files.delete(dir.resolve("checkpoint/progress/checkpoint-2000")); // its checkpoint never made it either
        try (Run second = new Run(3000, this::offsetsToFiles)) {
            assertEquals(Optional.of(new Time(1000)), second.context.recoveredBatch());
            assertEquals(List.of(2000L, 3000L), second.awaitThrough(3000));
        }
        TreeMap<Long, List<String>> out = outputs();
        assertEquals(List.of(1000L, 2000L, 3000L), List.copyOf(out.keySet()));
        assertEquals(range(5, 10), out.get(2000L), "batch 2 s ran again with the same offsets, once");
        assertEquals(range(10, 15), out.get(3000L));
    }

    @Test
    void aGraphThatNoLongerMatchesTheCheckpointFailsAtStartListingTheOperator() throws Exception {
        try (Run first = new Run(0, this::offsetsToFiles)) {
            first.advanceTo(1000);
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new Run(2000, c -> {
            c.generatorStream(10, 3, 1).print(); // a new source first: the offset source moves to position #1
            offsetsToFiles(c);
        }));
        assertTrue(e.getMessage().contains("no longer matches the checkpoint"), e.getMessage());
        assertTrue(e.getMessage().contains("'#0-offsetSource' (offsetSource) matches no operator"), e.getMessage());
        assertTrue(e.getMessage().contains(StreamingContext.ALLOW_DROPPING_STATE), e.getMessage());
    }
}
