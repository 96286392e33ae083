package io.sluice.kafka;

import io.sluice.dstream.testing.LocalCluster;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.testing.ChildJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code PreferConsistent} on a real multi-process cluster ({@code local-cluster[2,1,1024]}, two executor JVMs):
 * each Kafka partition is preferred on the executor Spark Streaming's own {@code KafkaRDD} prefers for it, the
 * partitions spread over both executors, the task runs there, and on the same executor batch after batch (where
 * its consumer is cached). Local mode, where the other Kafka tests run, has no executor list to place on.
 */
class PlacementClusterTest {
    private static final List<String> JVM = List.of("-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final String TOPIC = "placed";
    private static final int PARTITIONS = 4;
    private static final int BATCHES = 3;
    private static final int PER_BATCH = 10;
    private static final Pattern PLACED = Pattern.compile(
            "placed (\\d+) (\\S+) preferred=(\\S+) spark=(\\S+) ran=(\\S+) records=(\\d+)");

    @TempDir
    Path dir;

    @Test
    void eachPartitionIsReadWhereSparkStreamingPlacesItOnTheSameExecutorEveryBatch() throws Exception {
        List<Matcher> placed = new ArrayList<>();
        try (TestBroker broker = new TestBroker()) {
            broker.createTopic(TOPIC, PARTITIONS);
            for (int p = 0; p < PARTITIONS; p++) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < BATCHES * PER_BATCH; i++) {
                    values.add("r" + p + "-" + i);
                }
                broker.send(TOPIC, p, values);
            }
            Map<String, String> env = LocalCluster.driverEnv(dir);
            List<String> args = List.of(broker.bootstrap(), TOPIC, String.valueOf(PARTITIONS),
                    String.valueOf(BATCHES), String.valueOf(PER_BATCH));
            try (ChildJvm driver = ChildJvm.start(PlacementClusterApp.class, JVM, args, dir.resolve("driver.log"),
                    env)) {
                while (placed.size() < BATCHES * PARTITIONS) {
                    Matcher m = PLACED.matcher(driver.awaitLine(l -> l.startsWith("placed "), 300));
                    assertTrue(m.matches(), m.toString());
                    placed.add(m);
                }
                driver.awaitLine("done"::equals, 120);
                assertEquals(0, driver.awaitExit(120), driver.diagnostics());
            }
        }
        Map<String, String> executorOf = new HashMap<>();
        Set<String> batches = new HashSet<>();
        for (Matcher m : placed) {
            String line = m.group();
            batches.add(m.group(1));
            assertNotEquals("none", m.group(3), line);
            assertEquals(m.group(4), m.group(3), "Sluice and Spark Streaming prefer different executors: " + line);
            assertEquals(m.group(3), m.group(5), "the task did not run on its preferred executor: " + line);
            assertEquals(String.valueOf(PER_BATCH), m.group(6), line);
            String before = executorOf.putIfAbsent(m.group(2), m.group(5));
            assertTrue(before == null || before.equals(m.group(5)), "the partition moved between batches: " + line);
        }
        assertEquals(BATCHES, batches.size());
        assertEquals(PARTITIONS, executorOf.size());
        assertEquals(2, new HashSet<>(executorOf.values()).size(), "partitions not spread: " + executorOf);
    }
}
