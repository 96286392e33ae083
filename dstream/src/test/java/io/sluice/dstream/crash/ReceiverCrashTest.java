package io.sluice.dstream.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchService;
import java.nio.file.WatchKey;
import java.nio.file.StandardWatchEventKinds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A driver with a reliable receiver and the write-ahead log is killed with {@code kill -9} right after its
 * receiver acknowledged a chunk of records (so the chunk is, at best, only in the logs), and started again on
 * the same checkpoint directory. Every record the server sent and the receiver acknowledged must be in the output
 * exactly once, and counted exactly once in the final state of a running count per record (updateStateByKey).
 * The second driver is then stopped with SIGTERM right after another acknowledged chunk: its shutdown hook stops
 * gracefully ({@code sluice.stopGracefullyOnShutdown}), so that chunk is not lost either (within the graceful
 * stop timeout, and Hadoop's 30 s limit on shutdown hooks, which Spark's hooks run under). The test waits only
 * on blocking reads: the server's socket and the drivers' progress lines.
 */
class ReceiverCrashTest {
    private static final int CHUNK = 1000;

    @TempDir
    Path work;

    @Test
    void everyAcknowledgedRecordIsCountedExactlyOnceAcrossAKillAndAGracefulShutdown() throws Exception {
        Path checkpoints = work.resolve("checkpoints");
        Path output = work.resolve("output");
        Driver second = null;
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(120_000);
            String[] args = {checkpoints.toString(), output.toString(), String.valueOf(server.getLocalPort())};

            Driver first = Driver.start(args, work.resolve("first.log"));
            try (Socket c = server.accept()) {
                send(c, 0);
                long batch = first.awaitProcessed(CHUNK); // chunk 0 went through a batch
                // Acknowledged data is recovered from the log by a restart that finds a checkpoint (as in Spark
                // Streaming, a driver that dies before its first checkpoint restarts afresh): wait for it.
                awaitCheckpoint(checkpoints.resolve("progress"), batch);
                send(c, 1);                           // chunk 1 is acknowledged: logged, maybe not processed
                first.kill();
            }

            second = Driver.start(args, work.resolve("second.log"));
            second.awaitProcessed(CHUNK);             // chunk 1 came back from the logs and went through a batch
            try (Socket c = server.accept()) {        // the receiver of the restarted driver
                send(c, 2);
                second.terminate();                   // SIGTERM: the shutdown hook stops gracefully
            }
        }
        Map<String, Integer> seen = readLines(batchFiles(output, "batch-"));
        assertExactlyOnce("in the batches' output", seen, second);

        assertExactlyOnce("in the final state", finalState(output), second);
    }

    /**
     * A driver killed before its first checkpoint (indeed before its first batch: its interval is a day) has
     * acknowledged a chunk; the restart starts afresh, with no checkpoint, and still finds that chunk in the log.
     */
    @Test
    void recordsAcknowledgedBeforeTheFirstCheckpointAreCountedOnceAfterARestart() throws Exception {
        Path checkpoints = work.resolve("checkpoints");
        Path output = work.resolve("output");
        Driver second = null;
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(120_000);
            String port = String.valueOf(server.getLocalPort());

            Driver first = Driver.start(new String[] {checkpoints.toString(), output.toString(), port, "86400"},
                    work.resolve("first.log"));
            try (Socket c = server.accept()) {
                send(c, 0);                           // acknowledged: in the logs only
                first.kill();
            }
            assertEquals(-1, newestCheckpoint(Files.createDirectories(checkpoints.resolve("progress"))),
                    "the first driver died before its first checkpoint");

            String[] args = {checkpoints.toString(), output.toString(), port};
            second = Driver.start(args, work.resolve("second.log"));
            second.awaitProcessed(CHUNK);             // chunk 0 came back from the log and went through a batch
            try (Socket c = server.accept()) {
                send(c, 1);
                second.terminate();
            }
        }
        Map<String, Integer> seen = readLines(batchFiles(output, "batch-"));
        assertExactlyOnce("in the batches' output", seen, second, 2);
        assertExactlyOnce("in the final state", finalState(output), second, 2);
    }

    private static void assertExactlyOnce(String where, Map<String, Integer> counts, Driver second) {
        assertExactlyOnce(where, counts, second, 3);
    }

    private static void assertExactlyOnce(String where, Map<String, Integer> counts, Driver second, int chunks) {
        assertEquals(chunks * CHUNK, counts.size(), "records " + where);
        List<String> wrong = new ArrayList<>();
        for (int id = 0; id < chunks * CHUNK; id++) {
            int n = counts.getOrDefault("r" + id, 0);
            if (n != 1) {
                wrong.add("r" + id + " x" + n);
            }
        }
        assertTrue(wrong.isEmpty(), wrong.size() + " records not exactly once " + where + ", e.g. "
                + wrong.subList(0, Math.min(10, wrong.size())) + "; the restarted driver's log ends:\n" + second.tail());
    }

    /** The running count per record in the state the last batch saved: lines like "(r17,1)". */
    private static Map<String, Integer> finalState(Path output) throws IOException {
        Map<String, Integer> state = new HashMap<>();
        for (String entry : readLines(batchFiles(output, newestStateBatch(output))).keySet()) {
            String[] keyAndCount = entry.substring(1, entry.length() - 1).split(",");
            state.put(keyAndCount[0], Integer.parseInt(keyAndCount[1]));
        }
        return state;
    }

    /** The directory name prefix of the last batch that saved the state: the final state. */
    private static String newestStateBatch(Path output) throws IOException {
        try (Stream<Path> dirs = Files.list(output)) {
            return dirs.map(d -> d.getFileName().toString())
                    .filter(n -> n.matches("state-\\d+\\.txt"))
                    .max(java.util.Comparator.comparingLong(n -> Long.parseLong(n.replaceAll("\\D", ""))))
                    .orElseThrow(() -> new AssertionError("no state was saved under " + output));
        }
    }

    /** Blocks until the driver has written the progress checkpoint of {@code batchMs} (or a later one). */
    private static void awaitCheckpoint(Path progress, long batchMs) throws Exception {
        Files.createDirectories(progress);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        try (WatchService watch = progress.getFileSystem().newWatchService()) {
            progress.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
            while (newestCheckpoint(progress) < batchMs) {
                long left = deadline - System.nanoTime();
                WatchKey key = left <= 0 ? null : watch.poll(left, TimeUnit.NANOSECONDS);
                if (key == null) {
                    throw new AssertionError("no checkpoint of batch " + batchMs + " within 120 s");
                }
                key.pollEvents();
                key.reset();
            }
        }
    }

    private static long newestCheckpoint(Path progress) throws IOException {
        try (Stream<Path> files = Files.list(progress)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.matches("checkpoint-\\d+"))
                    .mapToLong(n -> Long.parseLong(n.substring("checkpoint-".length())))
                    .max().orElse(-1);
        }
    }

    /** Sends chunk {@code k} and blocks until the receiver acknowledged it. */
    private static void send(Socket c, int k) throws IOException {
        StringBuilder chunk = new StringBuilder();
        for (int i = k * CHUNK; i < (k + 1) * CHUNK; i++) {
            chunk.append('r').append(i).append('\n');
        }
        chunk.append(".\n");
        OutputStream out = c.getOutputStream();
        out.write(chunk.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        c.setSoTimeout(120_000);
        String ack = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertEquals("ack " + CHUNK, ack, "the receiver acknowledges the whole chunk");
    }

    /** The part files of the batch directories of {@code output} whose names start with {@code prefix}. */
    private static List<Path> batchFiles(Path output, String prefix) throws IOException {
        try (Stream<Path> files = Files.walk(output)) {
            return files.filter(p -> p.getFileName().toString().startsWith("part-")
                    && p.getParent().getFileName().toString().startsWith(prefix)).toList();
        }
    }

    /** How often each line occurs in {@code files}. */
    private static Map<String, Integer> readLines(List<Path> files) throws IOException {
        Map<String, Integer> seen = new HashMap<>();
        for (Path f : files) {
            for (String line : Files.readAllLines(f)) {
                seen.merge(line, 1, Integer::sum);
            }
        }
        return seen;
    }

    /** A driver JVM running {@link ReceiverCrashApp}; its stdout lines are read as they come. */
    private static final class Driver {
        private final Process process;
        private final Path log;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        private Driver(Process process, Path log) {
            this.process = process;
            this.log = log;
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // killed
                }
                lines.add("<exit>");
            });
            reader.setDaemon(true);
            reader.start();
        }

        static Driver start(String[] args, Path log) throws IOException {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx768m",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), ReceiverCrashApp.class.getName()));
            command.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(command).redirectError(log.toFile());
            pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
            return new Driver(pb.start(), log);
        }

        /**
         * Waits (at most 120 s in all) until the batches this driver completed hold {@code records} records;
         * returns the time of the batch that reached them.
         */
        long awaitProcessed(long records) throws Exception {
            long total = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (true) {
                long left = deadline - System.nanoTime();
                String line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
                if (line == null || line.equals("<exit>")) {
                    throw new AssertionError("the driver's batches held " + total + " of " + records
                            + " records when it stopped reporting or 120 s passed; its log: " + tail());
                }
                if (line.startsWith("batch ")) {
                    String[] parts = line.split(" ");
                    total += Long.parseLong(parts[2]);
                    if (total >= records) {
                        return Long.parseLong(parts[1]);
                    }
                }
            }
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor();
        }

        void terminate() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the driver did not shut down within 120 s of SIGTERM; its log: " + tail());
            }
        }

        String tail() {
            try {
                List<String> all = Files.readAllLines(log);
                return String.join("\n", all.subList(Math.max(0, all.size() - 30), all.size()));
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }
    }
}
