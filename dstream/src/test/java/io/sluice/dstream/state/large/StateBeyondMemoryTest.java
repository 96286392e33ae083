package io.sluice.dstream.state.large;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * State several times larger than the heap: a running count filling 3,000,000 distinct keys (about 160 MB of heap
 * tables, which Spark's storage memory of a 512 MB JVM cannot keep) in a JVM of its own ({@link LargeStateApp},
 * {@code -Xmx512m}, exiting on an OutOfMemoryError, so nothing else is hit). On rocksdb it runs to the end with a
 * flat heap and every count right; on heap the batch whose state outgrows memory fails with a message naming the
 * operator, the batch and the setting to change, before the heap runs out, also where the heap would run out
 * while a table grows (a smaller JVM whose storage memory is most of its heap).
 */
class StateBeyondMemoryTest {
    private static final long KEYS = 3_000_000;
    private static final long PER_BATCH = 250_000;
    private static final int REVISITS = 2;
    private static final List<String> JVM = List.of("-Xmx512m", "-XX:+ExitOnOutOfMemoryError", "-XX:+UseSerialGC");
    private static final long GROWTH_KEYS = 1_600_000;
    private static final long GROWTH_PER_BATCH = 200_000;
    private static final List<String> GROWTH_JVM = List.of("-Xmx192m", "-XX:+ExitOnOutOfMemoryError",
            "-XX:+UseSerialGC", "-Dspark.testing.reservedMemory=0");

    @TempDir
    Path dir;

    private record Batch(long keys, long bytes, long disk, long heap, long millis) {
        static Batch parse(String line) {
            String[] f = line.split(" ");
            return new Batch(value(f[2]), value(f[3]), value(f[4]), value(f[5]), value(f[6]));
        }

        private static long value(String field) {
            return Long.parseLong(field.substring(field.indexOf('=') + 1));
        }
    }

    private List<String> run(String backend) throws Exception {
        return run(backend, JVM, KEYS, PER_BATCH, REVISITS, 4);
    }

    /**
     * Runs {@link LargeStateApp} to its end ("done") or its failure; fails if the child ends otherwise (an
     * OutOfMemoryError: the log it quotes ends with it).
     */
    private List<String> run(String backend, List<String> jvm, long keys, long perBatch, int revisits,
            int partitions) throws Exception {
        Path local = Files.createDirectories(dir.resolve("local-" + backend));
        List<String> args = List.of(backend, String.valueOf(keys), String.valueOf(perBatch),
                String.valueOf(revisits), local.toString(), String.valueOf(partitions));
        try (ChildJvm app = ChildJvm.start(LargeStateApp.class, jvm, args, dir.resolve(backend + ".log"))) {
            app.awaitLine(l -> l.startsWith("done ") || l.startsWith("failed: "), 600);
            app.awaitExit(60);
            List<String> stores;
            try (Stream<Path> files = Files.walk(local)) {
                stores = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("sluice-state")).toList();
            }
            assertEquals(List.of(), stores, "the RocksDB stores are deleted when the context stops");
            return new ArrayList<>(app.seen());
        }
    }

    @Test
    void onRocksdbTheStateOutgrowsTheHeapAndTheHeapStaysFlat() throws Exception {
        List<String> lines = run("rocksdb");
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith("done "), "the job ran to the end: " + lines);
        List<Batch> batches = lines.stream().filter(l -> l.startsWith("batch ")).map(Batch::parse).toList();
        int filling = (int) (KEYS / PER_BATCH);
        assertEquals(filling + REVISITS, batches.size(), "every batch completed: " + lines);
        for (int b = 0; b < batches.size(); b++) {
            assertEquals(Math.min(KEYS, (b + 1) * PER_BATCH), batches.get(b).keys(), "keys after batch " + (b + 1));
        }
        // every record emits its key's new count: 1 for each key, then 2 for each key the last batches revisit
        long emitted = Long.parseLong(last.split(" ")[1].substring("emitted=".length()));
        assertEquals(KEYS + 2 * REVISITS * PER_BATCH, emitted, "the emitted counts");
        long max = Long.parseLong(last.split(" ")[2].substring("max=".length()));
        Batch full = batches.get(batches.size() - 1);
        assertTrue(full.disk() > 50L * KEYS / 2, "the state is on local disk: " + full);
        long early = batches.get(2).heap();
        long latest = batches.stream().skip(filling / 2).mapToLong(Batch::heap).max().orElseThrow();
        assertTrue(latest < early + (64L << 20), "the heap stays flat while the state grows: " + heaps(batches));
        assertTrue(latest < max / 2, "the heap holds no state: " + heaps(batches) + " of " + (max >> 20) + " MB");
        System.out.println("beyond memory (rocksdb): " + KEYS + " keys, heap after GC per batch " + heaps(batches)
                + " MB, state on disk " + (full.disk() >> 20) + " MB (" + full.disk() / KEYS + " bytes a key), "
                + "ms per batch " + batches.stream().map(Batch::millis).toList());
    }

    @Test
    void onHeapTheBatchWhoseStateOutgrowsMemoryFailsSayingWhatToChange() throws Exception {
        List<String> lines = run("heap");
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith("failed: "), "the heap backend cannot hold the state: " + lines);
        assertTrue(last.contains("fill"), "the message names the operator: " + last);
        assertTrue(last.contains("after batch "), "and the batch: " + last);
        assertTrue(last.contains("sluice.state.backend=rocksdb"), "and the setting to change: " + last);
        long completed = lines.stream().filter(l -> l.startsWith("batch ") && l.endsWith("failed=false")).count();
        System.out.println("beyond memory (heap): " + completed + " batches completed, then: " + last);
    }

    /**
     * A state whose versions fit the executor's storage memory, but whose table cannot grow in the heap that is
     * left: a table that grows holds its old and its new arrays at once, next to the version it was copied from.
     * One state partition fills {@value #GROWTH_KEYS} keys, {@value #GROWTH_PER_BATCH} a batch, in a 192 MB heap
     * (Spark's 300 MB reserve, which such a heap cannot spare, set to 0: storage memory is 60% of it). Checked only
     * after each batch, the fifth batch (800,000 keys in a table of 2 M slots) died of an OutOfMemoryError in a
     * table's rehash. Checked before, that batch fails with the message, and the JVM does not run out of heap (it
     * would exit without the "failed: " line).
     */
    @Test
    void onHeapTheBatchWhoseTableWouldGrowBeyondMemoryFailsBeforeTheGrowth() throws Exception {
        List<String> lines = run("heap", GROWTH_JVM, GROWTH_KEYS, GROWTH_PER_BATCH, 0, 1);
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith("failed: "), "the heap backend cannot grow the state: " + lines);
        assertTrue(last.contains("'fill'"), "the message names the operator: " + last);
        assertTrue(last.contains("growing its table in batch "), "and the batch it checked before: " + last);
        assertTrue(last.contains("sluice.state.backend=rocksdb"), "and the setting to change: " + last);
        assertFalse(last.contains("OutOfMemoryError"), last);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("batch ") && l.endsWith("failed=false")),
                "batches completed before: " + lines);
    }

    private static List<Long> heaps(List<Batch> batches) {
        return batches.stream().map(b -> b.heap() >> 20).toList();
    }
}
