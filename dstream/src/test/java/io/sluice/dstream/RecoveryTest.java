package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.testing.OnEachStateBackend;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.JobTags;
import io.sluice.testkit.ManualClock;
import io.sluice.testkit.SharedSpark;
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
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * getOrCreate and driver restarts within one JVM (the kill tests in the recovery module crash real processes):
 * progress, missed batches, source positions, matching a rebuilt graph, and the file sink's exactly-once output.
 */
class RecoveryTest extends OnEachStateBackend {
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
    void anyPerBatchFileOutputIsCommittedUnderItsBatchTime() throws Exception {
        try (Run run = new Run(0, c -> OffsetSource.stream(c, 5).map(x -> x * 2)
                .saveAsBatchFiles(dir.resolve("out/offsets").toString(), "txt", (rdd, staging) -> {
                    Files.writeString(Files.createDirectories(Path.of(staging)).resolve("part-00000"),
                            String.join("\n", rdd.collect().stream().map(String::valueOf).toList()) + "\n");
                }))) {
            run.advanceTo(2000);
        }
        assertEquals(List.of("10", "12", "14", "16", "18"), outputs().get(2000L));
    }

    @Test
    void missedBatchesCanBeSkipped() throws Exception {
        try (Run first = new Run(0, this::offsetsToFiles)) {
            first.advanceTo(1000);
        }
        try (Run second = new Run(4500, c -> {
            c.conf(Settings.SKIP_MISSED_BATCHES, "true");
            offsetsToFiles(c);
        })) {
            assertEquals(List.of(5000L), second.advanceTo(5000));
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
        Path staging = dir.resolve("out/.offsets-3000.txt.staging");
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
        assertTrue(e.getMessage().contains(Settings.ALLOW_DROPPING_STATE), e.getMessage());
        try (Run allowed = new Run(2000, c -> {
            c.conf(Settings.ALLOW_DROPPING_STATE, "true");
            c.generatorStream(10, 3, 1).print();
            offsetsToFiles(c);
        })) {
            assertEquals(Optional.of(new Time(1000)), allowed.context.recoveredBatch(), "progress is kept");
            allowed.awaitThrough(2000);
        }
        assertEquals(range(0, 5), outputs().get(2000L), "the dropped position starts the source afresh");
    }

    // ---- state: upgrades and damaged checkpoints ----------------------------------------------------------

    private final java.util.Map<Long, java.util.Map<Long, Long>> totals = new java.util.concurrent.ConcurrentHashMap<>();

    /** offsets mod 3, weighted, summed per key by a named mapWithState checkpointed every batch. */
    private void weightedTotals(StreamingContext c, long weight, boolean upgraded) {
        DStream<Long> offsets = OffsetSource.stream(c, 5);
        if (upgraded) {
            offsets = offsets.filter(x -> x >= 0); // a new operator, before the stateful one
            offsets.count().print();               // and a new output
        }
        offsets.mapToPair(x -> new scala.Tuple2<>(x % 3, weight))
                .mapWithState(io.sluice.state.StateSpec.function(RecoveryTest::sum).numPartitions(2))
                .name("totals")
                .checkpoint(INTERVAL)
                .stateSnapshots()
                .foreachRDD((rdd, time) -> {
                    java.util.Map<Long, Long> state = new TreeMap<>();
                    rdd.collect().forEach(kv -> state.put(kv._1(), kv._2()));
                    totals.put(time.milliseconds(), state);
                });
    }

    private static Long sum(Long key, org.apache.spark.api.java.Optional<Long> value,
            io.sluice.state.State<Long> state) {
        long total = state.getOption().orElse(0L) + value.orElse(0L);
        state.update(total);
        return total;
    }

    private static java.util.Map<Long, Long> keys(long k0, long k1, long k2) {
        return new TreeMap<>(java.util.Map.of(0L, k0, 1L, k1, 2L, k2));
    }

    @Test
    void anUpgradedApplicationKeepsTheStateOfItsNamedOperators() throws Exception {
        try (Run first = new Run(0, c -> weightedTotals(c, 1, false))) {
            first.advanceTo(3000);
        }
        assertEquals(keys(5, 5, 5), totals.get(3000L)); // offsets 0..14, one each
        BlockingQueue<String> stateReads = new LinkedBlockingQueue<>();
        SparkListener jobs = new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart job) {
                String description = job.properties().getProperty("spark.job.description", "");
                if (description.startsWith("reading the state of")) {
                    stateReads.add(job.properties().getProperty("spark.jobGroup.id") + ": " + description);
                }
            }
        };
        SharedSpark.context().sc().addSparkListener(jobs);
        try (Run upgraded = new Run(3000, c -> weightedTotals(c, 10, true))) { // new function body: weight 10
            assertEquals(Optional.of(new Time(3000)), upgraded.context.recoveredBatch());
            upgraded.advanceTo(4000);
        } finally {
            SharedSpark.context().sc().removeSparkListener(jobs);
        }
        assertEquals(keys(5 + 20, 5 + 20, 5 + 10), totals.get(4000L)); // offsets 15..19: keys 0, 1, 2, 0, 1
        // The restored state was read at start, in a job of its own tagged with the first batch after it.
        String read = stateReads.poll(60, TimeUnit.SECONDS);
        assertTrue(read != null && read.startsWith(JobTags.groupOf(4000) + ": reading the state of 'totals'")
                && read.contains("checkpointed at batch"), "state read ahead: " + read);
    }

    @Test
    void aDamagedNewestCheckpointFallsBackToAnOlderOneAndTheStateStillComesOutRight() throws Exception {
        try (Run first = new Run(0, c -> weightedTotals(c, 1, false))) {
            first.advanceTo(3000);
        }
        Path progress = dir.resolve("checkpoint/progress");
        byte[] newest = Files.readAllBytes(progress.resolve("checkpoint-3000"));
        newest[newest.length / 2] ^= 0x20; // a flipped byte
        Files.write(progress.resolve("checkpoint-3000"), newest);
        try (Stream<Path> state = Files.walk(dir.resolve("checkpoint/state"))) { // the 2 s checkpoint loses a file
            Path file = state.filter(p -> p.toString().contains("/2000-") && Files.isRegularFile(p)).findFirst()
                    .orElseThrow();
            Files.delete(file);
        }
        totals.clear();
        try (Run second = new Run(3000, c -> weightedTotals(c, 1, false))) {
            assertEquals(Optional.of(new Time(1000)), second.context.recoveredBatch(),
                    "both newer checkpoints are unusable");
            assertEquals(List.of(2000L, 3000L), second.awaitThrough(3000));
            second.advanceTo(4000);
        }
        assertEquals(keys(4, 3, 3), totals.get(2000L)); // offsets 0..9
        assertEquals(keys(7, 7, 6), totals.get(4000L));
    }

    @Test
    void aDirectoryWithCheckpointsNoneOfWhichIsUsableFailsClearly() throws Exception {
        try (Run first = new Run(0, this::offsetsToFiles)) {
            first.advanceTo(1000);
        }
        Files.write(dir.resolve("checkpoint/progress/checkpoint-1000"), new byte[0]);
        java.io.UncheckedIOException e = assertThrows(java.io.UncheckedIOException.class,
                () -> new Run(2000, this::offsetsToFiles));
        assertTrue(e.getMessage().contains("No usable checkpoint in"), e.getMessage());
        assertTrue(e.getMessage().contains("checkpoint-1000 is unusable: it is empty"), e.getMessage());
    }
}
