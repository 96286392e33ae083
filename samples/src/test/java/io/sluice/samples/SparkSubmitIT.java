package io.sluice.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.testing.ChildJvm;
import io.sluice.dstream.testing.StandaloneCluster;
import io.sluice.kafka.TestBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The samples' application jar submitted as a user submits it: {@code org.apache.spark.deploy.SparkSubmit} (what
 * {@code bin/spark-submit} runs) in its own JVM, on Spark's jars alone, onto a standalone Master and two one-core
 * Workers (separate JVMs on 127.0.0.1) whose executors take Spark from the cluster's {@code jars/} folder and
 * Sluice from the jar. The commands are the README's (see {@link ReadmeCommand}); the cluster-wide settings a
 * Spark installation keeps in {@code conf/spark-defaults.conf} (loopback addresses) are in the test's.
 *
 * <p>Runs after {@code package} (failsafe), when the shaded jar exists.
 */
class SparkSubmitIT {
    private static final long TIMEOUT_S = 180;

    @TempDir
    static Path dir;

    private static Path repository;
    private static Path sparkHome;
    private static StandaloneCluster cluster;

    @BeforeAll
    static void startCluster() throws IOException, InterruptedException {
        repository = Path.of(System.getProperty("sluice.repository")).toAbsolutePath().normalize();
        sparkHome = Files.createDirectories(dir.resolve("spark-home"));
        Path jars = Files.createDirectories(sparkHome.resolve("jars"));
        for (String jar : Files.readString(Path.of(System.getProperty("sluice.sparkClasspath"))).trim().split(":")) {
            Path target = Path.of(jar);
            Files.createSymbolicLink(jars.resolve(target.getFileName()), target);
        }
        Path conf = Files.createDirectories(sparkHome.resolve("conf"));
        Files.write(conf.resolve("spark-defaults.conf"), List.of(
                "spark.driver.host 127.0.0.1",
                "spark.driver.bindAddress 127.0.0.1",
                "spark.ui.enabled false",
                "spark.log.level WARN",
                "spark.executorEnv.SPARK_SCALA_VERSION 2.13",
                "spark.executor.extraJavaOptions -XX:+UseSerialGC -XX:TieredStopAtLevel=1"));
        long start = System.nanoTime();
        cluster = StandaloneCluster.start(dir, 2, 1, "1g", TIMEOUT_S);
        System.out.printf("spark-submit test: Master and 2 Workers up in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    @AfterAll
    static void stopCluster() throws InterruptedException, IOException {
        if (cluster != null) {
            cluster.close();
        }
        // The links into the Maven repository go before JUnit deletes the folder, which warns once per link.
        if (sparkHome == null) {
            return;
        }
        try (Stream<Path> links = Files.list(sparkHome.resolve("jars"))) {
            for (Path link : links.toList()) {
                Files.delete(link);
            }
        }
    }

    @Test
    void theWordCountSubmittedToTheClusterWritesEveryBatchsCountsFromExecutorsOnBothWorkers() throws Exception {
        Path out = dir.resolve("word-counts");
        ReadmeCommand command = ReadmeCommand.read(repository.resolve("README.md"), "WordCount");
        List<Path> earlierApps = applications();
        try (ChildJvm submit = submit(command, Map.of("master-url", cluster.masterUrl(), "output-dir",
                out.toString()), "word-count")) {
            long start = System.nanoTime();
            String first = submit.awaitLine(l -> l.matches("batch .*: \\d+ records, .*"), TIMEOUT_S);
            double firstBatch = (System.nanoTime() - start) / 1e9;
            assertEquals(0, submit.awaitExit(TIMEOUT_S), "spark-submit's exit code\n" + cluster.diagnostics());
            System.out.printf("spark-submit test: WordCount submit to first batch %.1f s (%s), to exit %.1f s%n",
                    firstBatch, first, (System.nanoTime() - start) / 1e9);
        }
        long records = Long.parseLong(command.option("--records", "100000"));
        int keys = Integer.parseInt(command.option("--keys", "10000"));
        int batches = Integer.parseInt(command.option("--batches", "10"));
        List<Path> batchDirs = list(out);
        assertTrue(batchDirs.size() >= batches, "at least " + batches + " batch directories: " + batchDirs);
        for (Path batch : batchDirs) {
            assertTrue(batch.getFileName().toString().matches("counts-\\d+\\.txt"), "a committed batch: " + batch);
            Map<String, Long> counts = readCounts(batch);
            assertEquals(records, counts.values().stream().mapToLong(Long::longValue).sum(),
                    "every generated word counted once in " + batch);
            assertTrue(counts.keySet().stream().allMatch(w -> w.matches("w\\d+") && Integer.parseInt(w.substring(1))
                    < keys), "only the generator's " + keys + " words in " + batch);
        }
        assertExecutorsRanOnBothWorkers(earlierApps);
    }

    @Test
    void theKafkaWordCountSubmittedToTheClusterCountsTheLinesSentToTheBroker() throws Exception {
        Path out = dir.resolve("kafka-word-counts");
        ReadmeCommand command = ReadmeCommand.read(repository.resolve("README.md"), "KafkaWordCount");
        List<String> lines = List.of("to be or not to be", "that is the question", "be quick");
        List<Path> earlierApps = applications();
        try (TestBroker broker = new TestBroker()) {
            broker.createTopic("lines", 2);
            try (ChildJvm submit = submit(command, Map.of("master-url", cluster.masterUrl(), "output-dir",
                    out.toString(), "brokers", broker.bootstrap()), "kafka-word-count")) {
                long start = System.nanoTime();
                // A new group starts at the topic's end: send once the first batch has fixed the start offsets.
                String first = submit.awaitLine(l -> l.startsWith("Time: "), TIMEOUT_S);
                System.out.printf("spark-submit test: KafkaWordCount submit to first batch %.1f s (%s)%n",
                        (System.nanoTime() - start) / 1e9, first);
                broker.send("lines", 0, lines.subList(0, 2));
                broker.send("lines", 1, lines.subList(2, 3));
                Map<String, Long> expected = Map.of("to", 2L, "be", 3L, "or", 1L, "not", 1L, "that", 1L, "is", 1L,
                        "the", 1L, "question", 1L, "quick", 1L);
                Map<String, Long> counted = Map.of();
                for (int batch = 0; batch < 30 && !counted.equals(expected); batch++) {
                    submit.awaitLine(l -> l.startsWith("Time: "), TIMEOUT_S); // printed after the batch's files
                    counted = sumOfBatches(out);
                }
                assertEquals(expected, counted, "the words of the lines sent, each counted once, summed over the "
                        + "batches' files\n" + submit.diagnostics());
                System.out.printf("spark-submit test: KafkaWordCount counted every line %.1f s after submit%n",
                        (System.nanoTime() - start) / 1e9);
            }
        }
        assertExecutorsRanOnBothWorkers(earlierApps);
    }

    /** What {@code $SPARK_HOME/bin/spark-submit} starts: {@code spark-class} runs SparkSubmit on Spark's jars. */
    private ChildJvm submit(ReadmeCommand command, Map<String, String> values, String name) throws IOException {
        List<String> arguments = new ArrayList<>();
        for (String argument : command.arguments(values)) {
            Path file = repository.resolve(argument);
            arguments.add(argument.endsWith(".jar") && Files.isRegularFile(file) ? file.toString() : argument);
        }
        Path appJar = Path.of(System.getProperty("sluice.appJar")).toAbsolutePath().normalize();
        assertTrue(arguments.contains(appJar.toString()), "the README submits the jar the build made, " + appJar
                + ": " + command.words());
        String driverMemory = command.option("--driver-memory", "1g");
        return ChildJvm.start(sparkHome.resolve("conf") + ":" + sparkHome.resolve("jars") + "/*",
                "org.apache.spark.deploy.SparkSubmit", List.of("-Xmx" + driverMemory), arguments,
                dir.resolve(name + "-driver.log"), Map.of("SPARK_HOME", sparkHome.toString(), "SPARK_CONF_DIR",
                        sparkHome.resolve("conf").toString(), "SPARK_SCALA_VERSION", "2.13"));
    }

    /** The applications' work directories on the Workers so far, {@code <worker dir>/<app id>}. */
    private static List<Path> applications() throws IOException {
        List<Path> apps = new ArrayList<>();
        for (int worker = 1; worker <= 2; worker++) {
            Path workDir = dir.resolve("worker-" + worker);
            if (Files.isDirectory(workDir)) {
                apps.addAll(list(workDir));
            }
        }
        return apps;
    }

    /**
     * Each Worker launched an executor of the new application, and that executor fetched the application jar into
     * its work directory ({@code <worker dir>/<app id>/<executor id>/}): Sluice's classes reached both Workers
     * from the submitted jar, not from a class path.
     */
    private static void assertExecutorsRanOnBothWorkers(List<Path> earlierApps) throws IOException {
        String jarName = Path.of(System.getProperty("sluice.appJar")).getFileName().toString();
        for (int worker = 1; worker <= 2; worker++) {
            List<Path> apps = list(dir.resolve("worker-" + worker)).stream().filter(a -> !earlierApps.contains(a))
                    .toList();
            assertEquals(1, apps.size(), "Worker " + worker + " ran an executor of the application\n"
                    + cluster.diagnostics());
            try (Stream<Path> files = Files.walk(apps.get(0))) {
                assertTrue(files.anyMatch(f -> f.getFileName().toString().equals(jarName)), "the executor on Worker "
                        + worker + " fetched " + jarName + "\n" + cluster.diagnostics());
            }
        }
    }

    private static Map<String, Long> sumOfBatches(Path out) throws IOException {
        Map<String, Long> sum = new TreeMap<>();
        if (Files.exists(out)) {
            for (Path batch : list(out)) {
                readCounts(batch).forEach((w, n) -> sum.merge(w, n, Long::sum));
            }
        }
        return sum;
    }

    /** A batch directory's part files, lines {@code (word,count)}; a word twice in one batch fails. */
    private static Map<String, Long> readCounts(Path batch) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        for (Path part : list(batch)) {
            if (!part.getFileName().toString().startsWith("part-")) {
                continue;
            }
            for (String line : Files.readAllLines(part)) {
                int comma = line.lastIndexOf(',');
                Long before = counts.put(line.substring(1, comma), Long.parseLong(line.substring(comma + 1,
                        line.length() - 1)));
                assertEquals(null, before, "word " + line + " written twice in " + batch);
            }
        }
        return counts;
    }

    private static List<Path> list(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().toList();
        }
    }
}
