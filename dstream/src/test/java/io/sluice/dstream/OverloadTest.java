package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.testing.ChildJvm;
import io.sluice.dstream.testing.LineServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingestion far faster than processing, in a 512 MB heap: a loopback server writes lines as fast as the socket
 * takes them to a job ({@link OverloadApp}, its own JVM with {@code -Xmx512m}, exiting on any OutOfMemoryError)
 * whose batches run only once its receiver has buffered half its default bound. The receiver pauses at the
 * bound, TCP holds the server back, the heap stays bounded, and the job counts every line the server wrote
 * exactly once (count and sum of ids). 1.1 GB by default (about 30 s on 2 cores); {@code
 * -Dsluice.test.overloadBytes=N} sends N bytes instead.
 */
class OverloadTest {
    private static final int LINE = 100; // 12-digit id, a space, 86 x's, a newline
    private static final int LINES_PER_WRITE = 655;

    @TempDir
    Path dir;

    @Test
    void aFastSenderIntoASlowJobIn512MbIsCountedExactlyOnceWithoutRunningOutOfMemory() throws Exception {
        long lines = Long.getLong("sluice.test.overloadBytes", 1_100_000_000L) / LINE;
        Path log = dir.resolve("overload-app.log");
        AtomicLong written = new AtomicLong();
        try (LineServer server = new LineServer(); ChildJvm job = ChildJvm.start(OverloadApp.class,
                List.of("-Xmx512m", "-XX:+ExitOnOutOfMemoryError"),
                List.of(String.valueOf(server.port()), String.valueOf(lines)), log)) {
            job.awaitLine("started"::equals, 120);
            LineServer.Connection c = server.accept();
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> send(c, lines, written));
            String done = job.awaitLine(l -> l.startsWith("done ") || l.startsWith("failed: "),
                    120 + lines * LINE / (1 << 20));
            assertTrue(done.startsWith("done "), done + "\n" + job.diagnostics());
            sending.join();
            String[] f = done.split(" ");
            long counted = Long.parseLong(f[1]);
            long idSum = Long.parseLong(f[2]);
            long heapPeak = Long.parseLong(f[3]);
            long mostBuffered = Long.parseLong(f[4]);
            long bound = Long.parseLong(f[5]);
            long afterGc = Long.parseLong(f[6]);
            long batches = job.seen().stream().filter(l -> l.startsWith("batch ")).count();
            System.out.printf("overload: %d lines (%d MB) written, %d counted; heap peak %d MB (the sum of each pool's peak; at most %d MB "
                    + "after a collection); most buffered %d MB (stored, bound %d MB); %d batches%n", written.get(),
                    written.get() * LINE >> 20, counted, heapPeak >> 20, afterGc >> 20, mostBuffered >> 20,
                    bound >> 20, batches);
            assertEquals(0, job.awaitExit(60), job.diagnostics());
            assertEquals(lines, written.get(), "the server wrote every line");
            assertEquals(written.get(), counted, "every line the server wrote is counted once");
            assertEquals(lines * (lines - 1) / 2, idSum, "each line once: the ids sum to 0 + 1 + ... + (lines - 1)");
            assertFalse(Files.readString(log).contains("OutOfMemoryError"), job.diagnostics());
            assertTrue(mostBuffered <= bound + bound / 4, "stored blocks stayed near the bound: " + mostBuffered);
            assertTrue(batches > 4, "batches ran while the receiver was paused: " + job.seen());
        }
    }

    /** Writes lines 0 .. lines-1 as fast as the socket takes them, counting those written. */
    private static void send(LineServer.Connection c, long lines, AtomicLong written) {
        byte[] chunk = new byte[LINES_PER_WRITE * LINE];
        for (int i = 0; i < LINES_PER_WRITE; i++) {
            java.util.Arrays.fill(chunk, i * LINE + 12, (i + 1) * LINE - 1, (byte) 'x');
            chunk[i * LINE + 12] = ' ';
            chunk[(i + 1) * LINE - 1] = '\n';
        }
        try {
            for (long first = 0; first < lines; first += LINES_PER_WRITE) {
                int n = (int) Math.min(LINES_PER_WRITE, lines - first);
                for (int i = 0; i < n; i++) {
                    long id = first + i;
                    for (int d = 11; d >= 0; d--, id /= 10) {
                        chunk[i * LINE + d] = (byte) ('0' + id % 10);
                    }
                }
                c.bytes(n == LINES_PER_WRITE ? chunk : java.util.Arrays.copyOf(chunk, n * LINE));
                written.addAndGet(n);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
