package io.sluice.dstream.recovery;

import io.sluice.dstream.testing.LocalCluster;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.testing.ChildJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live re-partitioning on a real multi-process cluster ({@code local-cluster}, as {@link ExecutorKillTest}),
 * with {@code kill -9} of one executor as soon as the state was asked to go from 4 to 8 partitions: the batch
 * that moves the key groups finds the killed executor's cached state partitions gone and rebuilds them from the
 * state checkpoint files and lineage; the stream goes on in 8 partitions and the state after every batch
 * equals a failure-free run's without re-partitioning.
 */
class ExecutorKillRepartitionTest {
    private static final int BATCHES = 14; // as ExecutorKillTest, whose state check this test shares
    private static final int BEFORE_MOVE = 4;
    private static final List<String> JVM = List.of("-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    @TempDir
    Path dir;

    @Test
    void anExecutorKilledAsTheStateMovesLosesNothing() throws Exception {
        Map<String, String> env = LocalCluster.driverEnv(dir);
        Path checkpoint = dir.resolve("checkpoint");
        Path out = dir.resolve("out");
        List<Integer> layouts = new ArrayList<>();
        try (ChildJvm driver = ChildJvm.start(ClusterWordCountApp.class, JVM, List.of(checkpoint.toString(),
                out.toString(), String.valueOf(BATCHES), BEFORE_MOVE + ":8"), dir.resolve("driver.log"), env)) {
            driver.awaitLine("executors 2"::equals, 180);
            driver.awaitLine("repartitioned 8"::equals, 180);
            ProcessHandle executor = ExecutorKillTest.executors(driver.handle()).get(0);
            executor.destroyForcibly();
            executor.onExit().join();
            while (true) {
                String line = driver.awaitLine(l -> l.startsWith("completed ") || l.startsWith("partitions ")
                        || l.equals("stopped"), 180);
                if (line.equals("stopped")) {
                    break;
                }
                if (line.startsWith("partitions ")) {
                    layouts.add(Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1)));
                } else {
                    assertTrue(line.endsWith("failed=false"), "a batch failed after the kill: " + line);
                }
            }
            assertEquals(0, driver.awaitExit(60), driver.diagnostics());
        }
        ExecutorKillTest.assertStateEqualsAFailureFreeRun(checkpoint, out);
        int moved = layouts.indexOf(8);
        assertTrue(moved >= 0, "the state went to 8 partitions: " + layouts);
        assertTrue(layouts.subList(0, moved).stream().allMatch(n -> n == 4)
                && layouts.subList(moved, layouts.size()).stream().allMatch(n -> n == 8),
                "4 partitions until the move, then 8: " + layouts);
        System.out.println("executor kill during a re-partition: state partitions per batch after the request "
                + layouts);
    }
}
