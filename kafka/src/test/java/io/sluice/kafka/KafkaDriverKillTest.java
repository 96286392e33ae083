package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.testing.ChildJvm;
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
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once over Kafka: a word count driver ({@link KafkaWordCountApp}) is killed with {@code kill -9} five
 * times at seeded random points while this test's producer keeps writing, and restarted with getOrCreate
 * each time. Then every batch has its ranges, counts and state files exactly once; the ranges follow each other
 * from offset 0 to the last record written; each batch's counts are those of its ranges' records (what a
 * failure-free run over those ranges writes); the state after each batch is the sum of the counts so far, and
 * the final state counts every record written once; and a {@code read_committed} consumer of the
 * transactional sink's topic sees every record's {@code partition:offset} once.
 */
class KafkaDriverKillTest {
    private static final long SEED = 20261205L;
    private static final int KILLS = 5;
    private static final int CHUNK = 4; // records written to each partition after each line the driver prints
    private static final long INTERVAL_MS = KafkaWordCountApp.INTERVAL.toMillis();
    private static final List<String> JVM = List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Dspark.ui.enabled=false");
    private static TestBroker broker;

    @TempDir
    Path dir;
    private final long[] written = new long[KafkaWordCountApp.PARTITIONS];

    @BeforeAll
    static void startBroker() throws IOException {
        broker = new TestBroker();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private void produce(int perPartition) {
        for (int p = 0; p < written.length; p++) {
            List<String> words = new ArrayList<>();
            for (int i = 0; i < perPartition; i++) {
                words.add(KafkaWordCountApp.word(p, written[p] + i));
            }
            broker.send(KafkaWordCountApp.WORDS, p, words);
            written[p] += perPartition;
        }
    }

    @Test
    void killedFiveTimesWhileAProducerWritesEveryRecordIsCountedAndSunkOnce() throws Exception {
        broker.createTopic(KafkaWordCountApp.WORDS, KafkaWordCountApp.PARTITIONS);
        broker.createTopic(KafkaWordCountApp.SUNK, KafkaWordCountApp.PARTITIONS);
        Random random = new Random(SEED);
        Path checkpoint = dir.resolve("checkpoint");
        Path out = dir.resolve("out");
        List<String> kills = new ArrayList<>();
        produce(20);
        long started = System.nanoTime();
        for (int run = 0; run <= KILLS; run++) {
            boolean last = run == KILLS;
            if (last) {
                produce(30); // and no more: the last run reads up to here and stops
            }
            long total = LongStream.of(written).sum();
            List<String> args = List.of(broker.bootstrap(), checkpoint.toString(), out.toString(),
                    last ? String.valueOf(total) : "0", String.valueOf(random.nextInt(3)));
            try (ChildJvm driver = ChildJvm.start(KafkaWordCountApp.class, JVM, args,
                    dir.resolve("driver-" + run + ".log"))) {
                String recovered = driver.awaitLine(l -> l.startsWith("recovered "), 120);
                assertTrue(run == 0 || !recovered.equals("recovered none"), "run " + run + " found no checkpoint");
                if (last) {
                    driver.awaitLine("stopped"::equals, 120);
                    assertEquals(0, driver.awaitExit(60), driver.diagnostics());
                    break;
                }
                if (run == 0) { // the first run must leave a checkpoint, or the next would rightly start afresh
                    while (!hasCheckpoint(checkpoint)) {
                        driver.awaitLine(l -> l.startsWith("completed "), 120);
                    }
                }
                int events = 1 + random.nextInt(20);
                String at = "";
                for (int i = 0; i < events; i++) {
                    at = awaitEvent(driver);
                    produce(CHUNK);
                }
                if (run % 2 == 1) { // then at the next record the sink writes: inside an open transaction
                    while (!(at = awaitEvent(driver)).startsWith("sink ")) {
                        produce(CHUNK);
                    }
                }
                driver.kill();
                kills.add(at);
            }
            produce(CHUNK); // while the driver is down
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertEquals(KILLS, kills.size());
        Map<TopicPartition, Long> ends = broker.admin().listOffsets(Map.of(
                new TopicPartition(KafkaWordCountApp.WORDS, 0), org.apache.kafka.clients.admin.OffsetSpec.latest(),
                new TopicPartition(KafkaWordCountApp.WORDS, 1), org.apache.kafka.clients.admin.OffsetSpec.latest()))
                .all().get().entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                        e -> e.getValue().offset()));
        for (int p = 0; p < written.length; p++) {
            assertEquals(written[p], ends.get(new TopicPartition(KafkaWordCountApp.WORDS, p)),
                    "the producer wrote each word once (offset = sequence number)");
        }
        int batches = assertFilesAreExactlyOnce(checkpoint, out);
        int aborted = assertSinkIsExactlyOnce();
        System.out.printf("kafka driver kill test: %d records, %d batches, %d kills in %.1f s (%d sink records in "
                + "aborted transactions), killed after %s%n", LongStream.of(written).sum(), batches, KILLS, seconds,
                aborted, kills);
    }

    private static String awaitEvent(ChildJvm driver) throws InterruptedException {
        return driver.awaitLine(l -> l.startsWith("submitted ") || l.startsWith("output ")
                || l.startsWith("completed ") || l.startsWith("sink "), 120);
    }

    /** Checks the files batch by batch; returns the number of batches. */
    private int assertFilesAreExactlyOnce(Path checkpoint, Path out) throws IOException {
        TreeSet<Long> times = new TreeSet<>();
        for (String name : names(out)) {
            assertTrue(name.matches("(ranges|counts|state)-\\d+\\.txt"), "only committed batch directories: " + name);
            times.add(Long.parseLong(name.substring(name.indexOf('-') + 1, name.length() - 4)));
        }
        long zero = zeroTime(checkpoint);
        List<Long> expectedTimes = LongStream.rangeClosed(1, (times.last() - zero) / INTERVAL_MS)
                .map(i -> zero + i * INTERVAL_MS).boxed().toList();
        assertEquals(expectedTimes, List.copyOf(times), "every batch from the first to the last, none missing");
        for (long t : times) {
            for (String kind : List.of("ranges", "counts", "state")) {
                assertTrue(Files.isDirectory(out.resolve(kind + "-" + t + ".txt")), "batch " + t + " has no " + kind
                        + " directory; the directories: " + names(out));
            }
        }
        long[] next = new long[written.length];
        Map<String, Long> totals = new TreeMap<>();
        for (long t : times) {
            Map<String, Long> counts = new TreeMap<>();
            List<String> ranges = lines(out.resolve("ranges-" + t + ".txt"));
            assertEquals(written.length, ranges.size(), "one range per partition in batch " + t);
            for (String range : ranges) {
                String[] f = range.split(" ");
                int p = Integer.parseInt(f[0]);
                long from = Long.parseLong(f[1]);
                long until = Long.parseLong(f[2]);
                assertEquals(next[p], from, "batch " + t + " starts partition " + p + " where the last one ended");
                assertTrue(until - from <= KafkaWordCountApp.MAX_RATE, "the rate limit holds in batch " + t);
                for (long o = from; o < until; o++) {
                    counts.merge(KafkaWordCountApp.word(p, o), 1L, Long::sum);
                }
                next[p] = until;
            }
            assertEquals(counts, readCounts(out.resolve("counts-" + t + ".txt")), "counts of batch " + t);
            counts.forEach((w, n) -> totals.merge(w, n, Long::sum));
            assertEquals(totals, readCounts(out.resolve("state-" + t + ".txt")), "state after batch " + t);
        }
        assertEquals(List.of(written[0], written[1]), List.of(next[0], next[1]), "every record read");
        Map<String, Long> expected = new TreeMap<>();
        for (int p = 0; p < written.length; p++) {
            for (long o = 0; o < written[p]; o++) {
                expected.merge(KafkaWordCountApp.word(p, o), 1L, Long::sum);
            }
        }
        assertEquals(expected, totals, "the final state counts every record written once");
        return times.size();
    }

    /** Checks the sink's topic; returns how many records it holds in aborted transactions. */
    private int assertSinkIsExactlyOnce() {
        List<String> sunk = TransactionalSinkTest.read(broker, KafkaWordCountApp.SUNK, "read_committed");
        Map<String, Integer> seen = new HashMap<>();
        sunk.forEach(v -> seen.merge(v, 1, Integer::sum));
        seen.forEach((v, n) -> assertEquals(1, n, v + " sunk " + n + " times"));
        TreeSet<String> expected = new TreeSet<>();
        for (int p = 0; p < written.length; p++) {
            for (long o = 0; o < written[p]; o++) {
                expected.add(p + ":" + o);
            }
        }
        assertEquals(expected, new TreeSet<>(seen.keySet()), "every record sunk");
        int aborted = TransactionalSinkTest.read(broker, KafkaWordCountApp.SUNK, "read_uncommitted").size()
                - sunk.size();
        // Not asserted: a kill inside a transaction leaves records only if the producer had sent some by then.
        return aborted;
    }

    private static Map<String, Long> readCounts(Path batchDir) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        for (String line : lines(batchDir)) {
            String[] kv = line.substring(1, line.length() - 1).split(",");
            assertEquals(null, counts.put(kv[0], Long.parseLong(kv[1])), "key " + kv[0] + " twice in " + batchDir);
        }
        return counts;
    }

    /** The lines of a batch directory's part files. */
    private static List<String> lines(Path batchDir) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String part : names(batchDir)) {
            if (part.startsWith("part-")) {
                lines.addAll(Files.readAllLines(batchDir.resolve(part)));
            }
        }
        return lines;
    }

    private static boolean hasCheckpoint(Path checkpoint) throws IOException {
        return Files.exists(checkpoint.resolve("progress"))
                && names(checkpoint.resolve("progress")).stream().anyMatch(n -> n.startsWith("checkpoint-"));
    }

    private static long zeroTime(Path checkpoint) throws IOException {
        for (String name : names(checkpoint.resolve("progress"))) {
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

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
