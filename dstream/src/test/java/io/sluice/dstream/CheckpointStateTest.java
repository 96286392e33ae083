package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.testing.StateBackends;
import io.sluice.rdd.Time;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.Collected;
import io.sluice.testkit.SharedSpark;
import io.sluice.testkit.StreamTester;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import scala.Tuple2;

/**
 * A checkpointed job's state read offline: a job with a mapWithState ('counts': removal at 3, a timeout) and an
 * updateStateByKey ('totals', fed by a replayable source) runs six batches with a state checkpoint every batch;
 * its live state after each batch is kept. Then, with the job stopped: every checkpointed batch read offline
 * equals the live state (update times included), the changes between two batches, the bootstrap round trip (a
 * new job started from state written out of RDDs continues exactly as the first job did), the inspector's text,
 * and the errors for an unknown operator, a batch without checkpoint and damaged files.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "{0}")
@MethodSource("io.sluice.dstream.testing.StateBackends#names")
class CheckpointStateTest {
    /** The backend the job keeps its state in: its checkpoints are entry files on heap, table files on rocksdb. */
    @Parameter
    String backend;

    private static final List<List<String>> WORDS = List.of(
            List.of("a", "b", "c", "d"), List.of("a", "b", "e"), List.of("a", "c", "e"),
            List.of("b", "e", "f"), List.of(), List.of());
    private static final int BATCHES = WORDS.size();

    @TempDir
    static Path dir;

    private String checkpoint;
    private final Map<Long, Map<String, Integer>> liveCounts = new TreeMap<>();
    private Map<Time, List<String>> emitted;
    private Map<Time, List<Tuple2<Long, Long>>> liveTotals;

    private static StateSpec<String, Integer, Integer, String> countsSpec() {
        return StateSpec.function((String word, Optional<Integer> one, State<Integer> s) -> {
            if (s.isTimingOut()) {
                return word + " timed out at " + s.get();
            }
            int n = s.getOption().orElse(0) + one.get();
            if (n == 3) {
                s.remove();
            } else {
                s.update(n);
            }
            return word + "=" + n;
        }).timeout(Duration.ofMillis(2500)).numPartitions(3);
    }

    private static MapWithStateDStream<String, Integer, Integer, String> counts(DStream<String> words) {
        return words.mapToPair(w -> new Tuple2<>(w, 1)).mapWithState(countsSpec()).name("counts")
                .checkpoint(Duration.ofSeconds(1));
    }

    private static PairDStream<Long, Long> totals(DStream<Long> offsets) {
        return offsets.mapToPair(n -> new Tuple2<>(n % 4, n))
                .<Long>updateStateByKey((values, sum) -> Optional.of(sum.orElse(0L)
                        + values.stream().mapToLong(Long::longValue).sum()), 2)
                .name("totals").checkpoint(Duration.ofSeconds(1));
    }

    @BeforeParameterizedClassInvocation
    void runTheJob(String backend) {
        this.backend = backend;
        checkpoint = dir.resolve(backend).resolve("checkpoint").toString();
        StateBackends.use(backend);
        try (StreamTester t = new StreamTester()) {
            t.context().checkpoint(checkpoint);
            MapWithStateDStream<String, Integer, Integer, String> counts = counts(t.input(WORDS));
            Collected<String> out = t.collect(counts);
            Collected<Tuple2<Long, Long>> totals = t.collect(totals(OffsetSource.stream(t.context(), 5)));
            for (int b = 1; b <= BATCHES; b++) {
                t.runBatch();
                liveCounts.put(b * 1000L, new HashMap<>(counts.currentState().collectAsMap()));
            }
            emitted = out.byTime();
            liveTotals = totals.byTime();
        } finally { // stopping waits for the last checkpoint to be written
            StateBackends.reset();
        }
    }

    @BeforeEach
    void useBackend() {
        StateBackends.use(backend); // the jobs a test starts (re-partitioned, bootstrapped) use it too
    }

    @AfterEach
    void resetBackend() {
        StateBackends.reset();
    }

    /** The batch (ms) that last gave {@code word} a record, up to batch {@code upTo} (ms). */
    private static long lastRecord(String word, long upTo) {
        long last = -1;
        for (int b = 1; b * 1000L <= upTo; b++) {
            if (WORDS.get(b - 1).contains(word)) {
                last = b * 1000L;
            }
        }
        return last;
    }

    private static <K, S> Map<K, StateEntry<S>> collect(JavaPairRDD<K, StateEntry<S>> rdd) {
        Map<K, StateEntry<S>> map = new HashMap<>(rdd.collectAsMap());
        rdd.unpersist();
        return map;
    }

    @Test
    void everyCheckpointedBatchReadsAsTheLiveStateWithItsUpdateTimes() {
        CheckpointState state = CheckpointState.open(SharedSpark.context(), checkpoint);
        assertEquals(Map.of("counts", "mapWithState", "totals", "updateStateByKey"), state.operators());
        List<Time> batches = state.stateBatches("counts");
        assertEquals(BATCHES, batches.size(), "a state checkpoint per batch, all retained: " + batches);
        for (Time batch : batches) {
            Map<String, StateEntry<Integer>> read = collect(state.read("counts", batch));
            Map<String, Integer> states = new HashMap<>();
            read.forEach((word, entry) -> {
                states.put(word, entry.state());
                assertEquals(new Time(lastRecord(word, batch.milliseconds())), entry.lastUpdate(), word + " @ " + batch);
            });
            assertEquals(liveCounts.get(batch.milliseconds()), states, "counts at " + batch);

            Map<Long, StateEntry<Long>> totals = collect(state.read("totals", batch));
            Map<Long, Long> expected = new HashMap<>();
            liveTotals.get(batch).forEach(p -> expected.put(p._1(), p._2()));
            Map<Long, Long> sums = new HashMap<>();
            totals.forEach((k, e) -> {
                sums.put(k, e.state());
                assertEquals(batch, e.lastUpdate(), "updateStateByKey updates every key every batch");
            });
            assertEquals(expected, sums, "totals at " + batch);
        }
        assertEquals(liveCounts.get(BATCHES * 1000L).size(), state.read("counts").count(), "newest");
        assertEquals(new Time(BATCHES * 1000L), batches.get(batches.size() - 1));
    }

    @Test
    void changesBetweenTwoBatchesAreTheKeysAddedUpdatedAndRemoved() {
        CheckpointState state = CheckpointState.open(SharedSpark.context(), checkpoint);
        Map<String, StateChange<Integer>> changes = new HashMap<>(
                state.<String, Integer>changes("counts", new Time(1000), new Time(3000)).collectAsMap());
        assertEquals(Map.of(
                "a", StateChange.removed(new StateEntry<>(1, new Time(1000))),
                "b", StateChange.updated(new StateEntry<>(1, new Time(1000)), new StateEntry<>(2, new Time(2000))),
                "c", StateChange.updated(new StateEntry<>(1, new Time(1000)), new StateEntry<>(2, new Time(3000))),
                "e", StateChange.added(new StateEntry<>(2, new Time(3000)))), changes,
                "d, unchanged since batch 1, is no change");
        assertEquals(4L, state.changes("totals", new Time(2000), new Time(3000)).count(), "every sum grew");
        assertThrows(IllegalArgumentException.class, () -> state.changes("counts", new Time(3000), new Time(1000)));
    }

    @Test
    void changesAcrossARepartitionMatchKeysBetweenTheTwoLayouts() {
        String repartitioned = dir.resolve(backend).resolve("repartitioned").toString();
        Map<Long, Map<String, Integer>> live = new HashMap<>();
        try (StreamTester t = new StreamTester()) {
            t.context().checkpoint(repartitioned);
            MapWithStateDStream<String, Integer, Integer, String> counts = counts(t.input(WORDS));
            t.collect(counts);
            for (int b = 1; b <= 4; b++) {
                if (b == 3) {
                    t.context().repartitionState(counts, 2); // from 3 partitions
                }
                t.runBatch();
                live.put(b * 1000L, new HashMap<>(counts.currentState().collectAsMap()));
            }
        }
        CheckpointState state = CheckpointState.open(SharedSpark.context(), repartitioned);
        Map<String, String> changes = new HashMap<>();
        state.<String, Integer>changes("counts", new Time(2000), new Time(4000)).collectAsMap().forEach((k, c) ->
                changes.put(k, c.kind() + " " + (c.before() == null ? null : c.before().state()) + "->"
                        + (c.after() == null ? null : c.after().state())));
        Map<String, Integer> before = live.get(2000L);
        Map<String, Integer> after = live.get(4000L);
        Map<String, String> expected = new HashMap<>();
        after.forEach((k, s) -> {
            if (!before.containsKey(k)) {
                expected.put(k, "ADDED null->" + s);
            } else if (!before.get(k).equals(s)) {
                expected.put(k, "UPDATED " + before.get(k) + "->" + s);
            }
        });
        before.forEach((k, s) -> {
            if (!after.containsKey(k)) {
                expected.put(k, "REMOVED " + s + "->null");
            }
        });
        assertTrue(expected.size() >= 3, "the script adds, updates and removes: " + expected);
        assertEquals(expected, changes);
        assertTrue(CheckpointInspector.report(repartitioned, new Time(4000))
                .contains("state @ 4000: 2 partitions, 128 key groups"));
    }

    @Test
    void aJobStartedOnABootstrappedCheckpointContinuesFromItsState() {
        CheckpointState first = CheckpointState.open(SharedSpark.context(), checkpoint);
        JavaPairRDD<String, StateEntry<Integer>> counts = first.read("counts", new Time(3000));
        JavaPairRDD<Long, StateEntry<Long>> totals = first.read("totals", new Time(3000));
        String bootstrapped = dir.resolve(backend).resolve("bootstrapped").toString();
        Time written = CheckpointState.bootstrap(SharedSpark.context(), bootstrapped, Duration.ofSeconds(1))
                .batchTime(new Time(3000))
                .mapWithStateEntries("counts", counts, countsSpec())
                .updateStateByKey("totals", totals.mapValues(StateEntry::state), 2)
                .write();
        assertEquals(new Time(3000), written);
        assertTrue(first.batches().size() > 1);

        List<List<Long>> offsets = new ArrayList<>();
        for (int b = 4; b <= BATCHES; b++) {
            List<Long> batch = new ArrayList<>();
            for (long n = 5L * (b - 1); n < 5L * b; n++) {
                batch.add(n);
            }
            offsets.add(batch);
        }
        try (StreamTester t = new StreamTester()) {
            t.clock().setTime(3000);
            Collected<String> out = t.collect(counts(t.input(WORDS.subList(3, BATCHES))));
            Collected<Tuple2<Long, Long>> sums = t.collect(totals(t.input(offsets)));
            StreamingContext restored = StreamingContext.getOrCreate(bootstrapped, () -> t.context());
            assertSame(t.context(), restored);
            assertEquals(java.util.Optional.of(new Time(3000)), restored.recoveredBatch());
            t.runBatches(BATCHES - 3);
            for (int b = 4; b <= BATCHES; b++) {
                Time time = new Time(b * 1000L);
                assertEquals(Collected.multiset(emitted.get(time)), Collected.multiset(out.byTime().get(time)),
                        "counts' output at " + time + " (d times out at 4 s: its update time came through)");
                assertEquals(Collected.multiset(liveTotals.get(time)), Collected.multiset(sums.byTime().get(time)),
                        "totals at " + time);
            }
            assertTrue(emitted.get(new Time(4000)).contains("d timed out at 1"), emitted.toString());
        }
        IllegalStateException again = assertThrows(IllegalStateException.class, () -> CheckpointState
                .bootstrap(SharedSpark.context(), bootstrapped, Duration.ofSeconds(1))
                .updateStateByKey("totals", totals.mapValues(StateEntry::state), 2).write());
        assertTrue(again.getMessage().contains("already holds checkpoints"), again.getMessage());
        counts.unpersist();
        totals.unpersist();
    }

    @Test
    void theInspectorListsBatchesOperatorsStateSizesAndSourcePositions() {
        String report = CheckpointInspector.report(checkpoint, null);
        List<String> lines = report.lines().map(l -> l.strip().replaceAll(" +", " ")).toList();
        assertTrue(lines.contains("Batches (" + BATCHES + " checkpoints, oldest first):"), report);
        assertTrue(lines.contains("6000 (1970-01-01T00:00:06Z) pending 0 state 'counts' @ 6000 state 'totals' @ 6000"),
                report);
        assertTrue(lines.contains("counts mapWithState state @ 6000: 3 partitions, 128 key groups"), report);
        assertTrue(lines.contains("totals updateStateByKey state @ 6000: 2 partitions, 128 key groups"), report);
        assertTrue(lines.stream().anyMatch(l -> l.matches("#\\d+-offsetSource batch 6000 30")), report);
        String countsTable = report.substring(report.indexOf("State of 'counts' at batch 6000:"),
                report.indexOf("State of 'totals'"));
        long keys = 0;
        long bytes = 0;
        for (String row : countsTable.lines().toList().subList(2, 5)) {
            String[] cells = row.strip().split(" +");
            keys += Long.parseLong(cells[1]);
            bytes += Long.parseLong(cells[2]);
            assertTrue(Long.parseLong(cells[2]) > 0, row);
        }
        assertEquals(liveCounts.get(6000L).size(), keys, countsTable);
        if (backend.equals("rocksdb")) { // deltas between table checkpoints, read on the manifest they follow
            assertTrue(countsTable.lines().anyMatch(l -> l.contains(" delta") && l.contains("(RocksDB, ")),
                    countsTable);
        }
        String total = "total " + keys + " " + bytes;
        assertTrue(countsTable.lines().anyMatch(l -> l.strip().replaceAll(" +", " ").equals(total)), countsTable);
        assertEquals(report, CheckpointState.open(SharedSpark.context(), checkpoint).describe(), "the same from code");
    }

    @Test
    void errorsNameTheOperatorTheBatchAndTheFile() throws IOException {
        CheckpointState state = CheckpointState.open(SharedSpark.context(), checkpoint);
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> state.read("sessions"));
        assertTrue(unknown.getMessage().contains("No operator 'sessions' has state")
                && unknown.getMessage().contains("'counts' (mapWithState), 'totals' (updateStateByKey)"),
                unknown.getMessage());
        IllegalArgumentException noBatch = assertThrows(IllegalArgumentException.class,
                () -> state.read("counts", new Time(2500)));
        assertTrue(noBatch.getMessage().contains("at batch 2500") && noBatch.getMessage().contains("[1000, 2000"),
                noBatch.getMessage());
        String empty = dir.resolve(backend).resolve("empty").toString();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CheckpointState.open(SharedSpark.context(),
                empty).read("counts")).getMessage().contains("No checkpoint in"));

        Path copy = dir.resolve(backend).resolve("damaged");
        copyTree(Path.of(checkpoint), copy);
        Path file = stateFile(copy, "counts", 6000, 1);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(raf.length() / 2);
            int b = raf.read();
            raf.seek(raf.length() / 2);
            raf.write(b ^ 0xff);
        }
        CheckpointState damaged = CheckpointState.open(SharedSpark.context(), copy.toString());
        IllegalStateException checksum = assertThrows(IllegalStateException.class, () -> damaged.read("counts"));
        assertTrue(checksum.getMessage().contains("'counts' after batch 6000")
                && checksum.getMessage().contains(file.getFileName().toString())
                && checksum.getMessage().contains("fails its checksum"), checksum.getMessage());
        assertTrue(damaged.describe().contains("unreadable partition 1: state file"), damaged.describe());

        Files.write(file, new byte[] {1, 2, 3});
        IllegalStateException truncated = assertThrows(IllegalStateException.class, () -> damaged.read("counts"));
        assertTrue(truncated.getMessage().contains(file.toString()) && truncated.getMessage().contains("has 3 bytes"),
                truncated.getMessage());
    }

    /** The newest file of partition {@code partition} of an operator's state at {@code batch}. */
    private static Path stateFile(Path checkpoint, String operator, long batch, int partition) throws IOException {
        String part = String.format("part-%05d", partition);
        for (String kind : List.of("-delta", "-full")) {
            Path f = checkpoint.resolve("state").resolve(operator).resolve(batch + kind).resolve(part);
            if (Files.exists(f)) {
                return f;
            }
        }
        throw new AssertionError("no state file of " + operator + " at " + batch);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
