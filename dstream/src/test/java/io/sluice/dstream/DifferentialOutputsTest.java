package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.testing.SparkStreamingRun;
import io.sluice.testkit.StreamTester;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Output operations against Spark Streaming 4.2.0: the printed text and the files written are the same. */
class DifferentialOutputsTest {
    private static final List<List<Integer>> INPUT = List.of(List.of(1, 2, 3), List.of(),
            IntStream.rangeClosed(1, 12).boxed().toList(), List.of(7));

    @Test
    void printIsByteForByteTheSame() {
        ByteArrayOutputStream spark = new ByteArrayOutputStream();
        try (SparkStreamingRun reference = new SparkStreamingRun(2);
                PrintStream out = new PrintStream(spark, true, StandardCharsets.UTF_8)) {
            org.apache.spark.streaming.api.java.JavaDStream<Integer> s = reference.input(INPUT);
            s.print();
            s.print(2);
            // Scala's println writes to Console.out, an inheritable thread-local: Spark Streaming's threads,
            // created by start(), inherit the capture.
            scala.Console$.MODULE$.withOut(out, () -> {
                reference.runBatches(INPUT.size() + 1);
                return null;
            });
        }
        ByteArrayOutputStream sluice = new ByteArrayOutputStream();
        PrintStream original = System.out;
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> s = t.input(INPUT);
            s.print();
            s.print(2);
            System.setOut(new PrintStream(sluice, true, StandardCharsets.UTF_8));
            t.runBatches(INPUT.size() + 1);
        } finally {
            System.setOut(original);
        }
        String expected = spark.toString(StandardCharsets.UTF_8);
        assertTrue(expected.contains("Time: 5000 ms"), expected);
        assertEquals(expected, sluice.toString(StandardCharsets.UTF_8));
    }

    @Test
    void saveAsTextFilesWritesTheSameDirectoriesAndLines(@TempDir Path dir) throws IOException {
        try (SparkStreamingRun reference = new SparkStreamingRun(2)) {
            org.apache.spark.streaming.api.java.JavaDStream<Integer> s = reference.input(INPUT);
            s.dstream().saveAsTextFiles(dir.resolve("spark/out").toString(), "txt");
            s.map(x -> x * 2).dstream().saveAsTextFiles(dir.resolve("spark/doubled").toString(), "");
            reference.runBatches(INPUT.size() + 1);
        }
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> s = t.input(INPUT);
            s.saveAsTextFiles(dir.resolve("sluice/out").toString(), "txt");
            s.map(x -> x * 2).saveAsTextFiles(dir.resolve("sluice/doubled").toString(), "");
            t.runBatches(INPUT.size() + 1);
        }
        Map<String, List<String>> expected = written(dir.resolve("spark"));
        assertEquals(10, expected.size(), expected.keySet().toString());
        assertEquals(expected, written(dir.resolve("sluice")));
    }

    /** Each batch directory's name and its lines, part files in order. */
    private static Map<String, List<String>> written(Path root) throws IOException {
        Map<String, List<String>> result = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : dirs.sorted().toList()) {
                List<String> lines = new ArrayList<>();
                try (Stream<Path> parts = Files.list(d)) {
                    for (Path p : parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
                        lines.addAll(Files.readAllLines(p));
                    }
                }
                result.put(d.getFileName().toString(), lines);
            }
        }
        return result;
    }
}
