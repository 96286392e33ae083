package io.sluice.dstream;

import io.sluice.dstream.testing.LocalCluster;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.testing.ChildJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A multi-process cluster ({@code local-cluster[2,1,1024]}, started by a driver in a child JVM) with
 * {@code spark.authenticate=true}, a shared secret, RPC encryption ({@code spark.network.crypto.enabled}) and
 * I/O encryption on: Sluice's own RPC (the receiver tracker's endpoints) and block store work under them, so a
 * socket receiver with the write-ahead log, a running count and a window give every batch's expected output.
 */
class AuthenticatedClusterTest {
    private static final List<String> JVM = List.of("-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    @TempDir
    Path dir;

    @Test
    void aReceiverStateAndWindowRunOnAnAuthenticatedEncryptedCluster() throws Exception {
        Map<String, String> env = LocalCluster.driverEnv(dir);
        List<String> batches = new ArrayList<>();
        try (ChildJvm driver = ChildJvm.start(AuthenticatedClusterApp.class, JVM,
                List.of(dir.resolve("checkpoint").toString()), dir.resolve("driver.log"), env)) {
            while (batches.size() < AuthenticatedClusterApp.BATCHES) {
                batches.add(driver.awaitLine(l -> l.startsWith("batch "), 300));
            }
            driver.awaitLine("done"::equals, 120);
            assertEquals(0, driver.awaitExit(120), driver.diagnostics());
        }
        assertEquals(expected(), batches);
    }

    /** Each batch's word counts, the running totals after it, and the counts of it and the batch before. */
    private static List<String> expected() {
        List<String> expected = new ArrayList<>();
        Map<String, Long> state = new TreeMap<>();
        Map<String, Long> previous = Map.of();
        for (int b = 1; b <= AuthenticatedClusterApp.BATCHES; b++) {
            Map<String, Long> counts = new TreeMap<>();
            AuthenticatedClusterApp.lines(b).forEach(w -> counts.merge(w, 1L, Long::sum));
            counts.forEach((w, n) -> state.merge(w, n, Long::sum));
            Map<String, Long> window = new TreeMap<>(previous);
            counts.forEach((w, n) -> window.merge(w, n, Long::sum));
            expected.add("batch " + b + " counts=" + counts + " state=" + state + " window=" + window
                    + " failed=false");
            previous = counts;
        }
        return expected;
    }
}
