package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import io.sluice.rdd.Time;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What output operations do, as a user observes it: printed text, files written, RDDs handed over. */
class OutputOperationsTest {
    private static final List<List<Integer>> NUMBERS = List.of(List.of(1, 2, 3), List.of(),
            IntStream.rangeClosed(1, 12).boxed().toList());

    private static final String RULE = "-------------------------------------------\n";

    private static String printed(int batches, java.util.function.Consumer<DStream<Integer>> outputs) {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (StreamTester t = new StreamTester()) {
            outputs.accept(t.input(NUMBERS));
            System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
            t.runBatches(batches);
        } finally {
            System.setOut(original);
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }

    private static String header(long ms) {
        return RULE + "Time: " + ms + " ms\n" + RULE;
    }

    @Test
    void printShowsTheFirstTenElementsInSparkStreamingsFormat() {
        String out = printed(3, DStream::print);
        assertEquals(header(1000) + "1\n2\n3\n\n"
                + header(2000) + "\n"
                + header(3000) + "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n...\n\n", out);
    }

    @Test
    void printOfNElements() {
        String out = printed(3, s -> s.print(3));
        assertEquals(header(1000) + "1\n2\n3\n\n" + header(2000) + "\n" + header(3000) + "1\n2\n3\n...\n\n", out);
    }

    @Test
    void saveAsTextFilesWritesOneDirectoryPerBatchNamedAfterTheBatchTime(@TempDir Path dir) throws IOException {
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> s = t.input(NUMBERS);
            s.saveAsTextFiles(dir.resolve("out").toString(), "txt");
            s.map(x -> x * 2).saveAsTextFiles(dir.resolve("plain").toString(), "");
            t.runBatches(3);
        }
        List<String> names;
        try (Stream<Path> files = Files.list(dir)) {
            names = files.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertEquals(List.of("out-1000.txt", "out-2000.txt", "out-3000.txt", "plain-1000", "plain-2000", "plain-3000"),
                names, "no staging directories are left behind");
        assertEquals(List.of("1", "2", "3"), lines(dir.resolve("out-1000.txt")));
        assertEquals(List.of(), lines(dir.resolve("out-2000.txt")));
        assertEquals(IntStream.rangeClosed(1, 12).mapToObj(String::valueOf).toList(), lines(dir.resolve("out-3000.txt")));
        assertEquals(List.of("2", "4", "6"), lines(dir.resolve("plain-1000")));
        assertTrue(Files.exists(dir.resolve("plain-2000").resolve("_SUCCESS")));
    }

    private static List<String> lines(Path directory) throws IOException {
        List<String> result = new ArrayList<>();
        try (Stream<Path> parts = Files.list(directory)) {
            for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
                result.addAll(Files.readAllLines(part));
            }
        }
        return result;
    }

    @Test
    void foreachRddWithAndWithoutTimeSeesEveryBatchIncludingEmptyOnes() {
        List<List<Integer>> plain = Collections.synchronizedList(new ArrayList<>());
        List<Long> times = Collections.synchronizedList(new ArrayList<>());
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> s = t.input(NUMBERS);
            s.foreachRDD(rdd -> {
                plain.add(rdd.collect());
            });
            s.foreachRDD((rdd, time) -> {
                times.add(time.milliseconds());
            });
            t.runBatches(4);
        }
        assertEquals(List.of(NUMBERS.get(0), List.of(), NUMBERS.get(2), List.of()), plain);
        assertEquals(List.of(1000L, 2000L, 3000L, 4000L), times);
    }

    @Test
    void cacheAndPersistSetTheStorageLevelOfEachBatchRdd() {
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> s = t.input(NUMBERS);
            Collected<String> levels = t.collect(s.map(x -> x).cache().transform(OutputOperationsTest::level)
                    .union(s.map(x -> x).persist(StorageLevel.MEMORY_AND_DISK()).transform(OutputOperationsTest::level))
                    .union(s.map(x -> x).persist().transform(OutputOperationsTest::level))
                    .union(s.map(x -> x).transform(OutputOperationsTest::level)));
            t.runBatches(2);
            List<String> expected = List.of(StorageLevel.MEMORY_ONLY_SER().description(),
                    StorageLevel.MEMORY_AND_DISK().description(), StorageLevel.MEMORY_ONLY_SER().description(),
                    StorageLevel.NONE().description());
            levels.assertBatches(List.of(expected, expected));
        }
    }

    private static JavaRDD<String> level(JavaRDD<Integer> rdd) {
        return JavaRDD.fromRDD(rdd.context().parallelize(
                scala.jdk.javaapi.CollectionConverters.asScala(List.of(rdd.getStorageLevel().description())).toSeq(),
                1, scala.reflect.ClassTag$.MODULE$.apply(String.class)), scala.reflect.ClassTag$.MODULE$.apply(String.class));
    }

    @Test
    void sliceReturnsTheRememberedRddsOfATimeRange() {
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> doubled = t.input(List.of(List.of(1), List.of(2), List.of(3), List.of(4))).map(x -> x * 2);
            t.collect(doubled);
            assertThrows(IllegalStateException.class, () -> doubled.slice(new Time(1000), new Time(2000)));
            t.context().remember(java.time.Duration.ofSeconds(10));
            t.runBatches(4);
            List<List<Integer>> sliced = doubled.slice(new Time(2000), new Time(3000)).stream()
                    .map(JavaRDD::collect).toList();
            assertEquals(List.of(List.of(4), List.of(6)), sliced);
            assertEquals(List.of(List.of(2), List.of(4), List.of(6), List.of(8)),
                    doubled.slice(new Time(0), new Time(4000)).stream().map(JavaRDD::collect).toList());
        }
    }
}
