package io.sluice.dstream.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.source.internal.WordRecords;
import io.sluice.dstream.testing.ChildJvm;
import io.sluice.dstream.testing.StateBackends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Crashes a driver with {@code kill -9} at random points (seeded) and restarts it with getOrCreate each time:
 * every batch's output (its word counts, and the running totals' state after it) exists exactly once and
 * equals what a failure-free run writes, which for the generator source is a function of the batch times.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("io.sluice.dstream.testing.StateBackends#names")
class DriverKillTest {
    @Parameter
    String backend;

    private static final long SEED = 20261202L;
    private static final int KILLS = 10;
    private static final long INTERVAL_MS = WordCountApp.INTERVAL.toMillis();
    private static final List<String> JVM = List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Dspark.ui.enabled=false");

    @TempDir
    Path dir;

    /** The driver's JVM flags, with the state backend of this run. */
    private List<String> jvm() {
        List<String> flags = new ArrayList<>(JVM);
        flags.add("-D" + StateBackends.PROPERTY + "=" + backend);
        return flags;
    }

    @Test
    void killedAtTenRandomPointsTheOutputAndStateEqualAFailureFreeRun() throws Exception {
        Random random = new Random(SEED);
        Path checkpoint = dir.resolve("checkpoint");
        Path out = dir.resolve("out");
        List<String> kills = new ArrayList<>();
        for (int run = 0; run <= KILLS; run++) {
            boolean last = run == KILLS;
            List<String> args = List.of(checkpoint.toString(), out.toString(), last ? "4" : "0",
                    String.valueOf(random.nextInt(3)));
            Path log = dir.resolve("driver-" + run + ".log");
            try (ChildJvm driver = ChildJvm.start(WordCountApp.class, jvm(), args, log)) {
                String recovered = driver.awaitLine(l -> l.startsWith("recovered "), 120);
                if (run > 0) {
                    assertTrue(!recovered.equals("recovered none"), "run " + run + " found no checkpoint");
                }
                if (last) {
                    driver.awaitLine("stopped"::equals, 120);
                    assertEquals(0, driver.awaitExit(60), driver.diagnostics());
                    break;
                }
                if (run == 0) { // the first run must leave a checkpoint, or the next would rightly start afresh
                    while (!Files.exists(checkpoint.resolve("progress")) || listNames(checkpoint.resolve("progress"))
                            .stream().noneMatch(n -> n.startsWith("checkpoint-"))) {
                        driver.awaitLine(l -> l.startsWith("completed "), 120);
                    }
                }
                int events = 1 + random.nextInt(40); // about five events a batch
                String at = "";
                for (int i = 0; i < events; i++) {
                    at = driver.awaitLine(l -> l.startsWith("submitted ") || l.startsWith("output ")
                            || l.startsWith("completed "), 120);
                }
                driver.kill();
                kills.add(at);
            }
        }
        assertEquals(KILLS, kills.size());
        System.out.println("driver kill test: killed after " + kills);
        assertOutputIsExactlyOnce(checkpoint, out);
        String newest = listNames(checkpoint.resolve("progress")).stream().filter(n -> n.startsWith("checkpoint-"))
                .reduce((a, b) -> b).orElseThrow();
        String text = Files.readString(checkpoint.resolve("progress").resolve(newest));
        assertTrue(text.contains("\nstate totals mapWithState "), "the state is checkpointed: " + text);
        System.out.println("driver kill test: the last checkpoint\n" + text);
    }

    private void assertOutputIsExactlyOnce(Path checkpoint, Path out) throws IOException {
        long zero = zeroTime(checkpoint);
        TreeSet<Long> batches = new TreeSet<>();
        for (String name : listNames(out)) {
            assertTrue((name.startsWith("counts-") || name.startsWith("state-")) && name.endsWith(".txt"),
                    "only committed batch directories remain, found " + name);
            if (name.startsWith("counts-")) {
                batches.add(Long.parseLong(name.substring("counts-".length(), name.length() - 4)));
            }
        }
        long last = batches.last();
        TreeSet<Long> expected = new TreeSet<>();
        for (long t = zero + INTERVAL_MS; t <= last; t += INTERVAL_MS) {
            expected.add(t);
        }
        assertEquals(expected, batches, "one output directory per batch, none missing");
        assertEquals(2 * expected.size(), listNames(out).size(), "and one state directory per batch");
        Map<String, Long> totals = new TreeMap<>();
        for (long t : batches) {
            Map<String, Long> counts = expectedCounts(t);
            assertEquals(counts, readCounts(out.resolve("counts-" + t + ".txt")), "counts of batch " + t);
            totals = new TreeMap<>(sum(totals, counts));
            assertEquals(totals, readCounts(out.resolve("state-" + t + ".txt")), "state after batch " + t);
        }
    }

    /** What a failure-free run writes for batch {@code t}: the generator's words of that batch, counted. */
    static Map<String, Long> expectedCounts(long t) {
        return generatorCounts(t, INTERVAL_MS, WordCountApp.RECORDS, WordCountApp.PARTITIONS, WordCountApp.KEYS,
                WordCountApp.SEED);
    }

    /** The words of the generator source's batch at {@code t}, counted: a function of the batch time alone. */
    static Map<String, Long> generatorCounts(long t, long intervalMs, long records, int partitions, int keys, long seed) {
        Map<String, Long> counts = new TreeMap<>();
        long batch = Math.floorDiv(t, intervalMs);
        for (int p = 0; p < partitions; p++) {
            long n = records / partitions + (p < records % partitions ? 1 : 0);
            for (long i = 0; i < n; i++) {
                counts.merge(WordRecords.word(batch, p, i, keys, seed), 1L, Long::sum);
            }
        }
        return counts;
    }

    static Map<String, Long> readCounts(Path batchDir) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        for (String part : listNames(batchDir)) {
            if (!part.startsWith("part-")) {
                continue;
            }
            for (String line : Files.readAllLines(batchDir.resolve(part))) {
                String[] kv = line.substring(1, line.length() - 1).split(",");
                Long before = counts.put(kv[0], Long.parseLong(kv[1]));
                assertEquals(null, before, "key " + kv[0] + " written twice in " + batchDir);
            }
        }
        return counts;
    }

    static long zeroTime(Path checkpoint) throws IOException {
        for (String name : listNames(checkpoint.resolve("progress"))) {
            if (name.startsWith("checkpoint-")) {
                for (String line : Files.readAllLines(checkpoint.resolve("progress").resolve(name))) {
                    if (line.startsWith("zero-time ")) {
                        return Long.parseLong(line.substring("zero-time ".length()));
                    }
                }
            }
        }
        throw new AssertionError("no checkpoint in " + checkpoint);
    }

    static List<String> listNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static Map<String, Long> sum(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> result = new HashMap<>(a);
        b.forEach((k, v) -> result.merge(k, v, Long::sum));
        return result;
    }
}
