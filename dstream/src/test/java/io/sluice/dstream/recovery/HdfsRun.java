package io.sluice.dstream.recovery;

import io.sluice.dstream.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * One run of {@link HdfsApp} (its checkpoint directory on HDFS, its output directory) and its current driver JVM:
 * starts and kills drivers, moves the driver's clock one batch at a time and keeps, per batch time, how many socket
 * lines the batch took (a batch run again after a restart takes the same logged blocks: the same count).
 */
final class HdfsRun implements AutoCloseable {
    private static final long TIMEOUT_S = 60;

    private final String checkpoint;
    private final Path dir;
    private final int port;
    private final List<String> jvm;
    private final long intervalMs;
    private final Map<Long, Long> taken = new TreeMap<>();
    private final List<String> failedBatches = new ArrayList<>();
    /**
     * The current driver's "submitted t" and "completed t" lines by their first two words: the listener thread
     * may print a batch's lines before the main thread prints "advanced t", so a wait for them first looks here.
     */
    private final Map<String, String> batchLines = new java.util.HashMap<>();
    private ChildJvm driver;
    private int started;

    HdfsRun(String checkpoint, Path dir, int port, List<String> jvm, long intervalMs) throws IOException {
        this.checkpoint = checkpoint;
        this.dir = Files.createDirectories(dir);
        this.port = port;
        this.jvm = jvm;
        this.intervalMs = intervalMs;
    }

    Path out() {
        return dir.resolve("out");
    }

    /** Starts a driver on the run's checkpoint; returns what it recovered ("none" or a batch time). */
    String start() throws Exception {
        batchLines.clear();
        driver = ChildJvm.start(HdfsApp.class, jvm, List.of(checkpoint, out().toString(), String.valueOf(port),
                String.valueOf(intervalMs)), dir.resolve("driver-" + started++ + ".log"), Map.of());
        return await(l -> l.startsWith("recovered ")).substring("recovered ".length());
    }

    /** Moves the clock one interval; returns the new batch's time. */
    long advance() throws Exception {
        driver.tell("batch");
        return Long.parseLong(await(l -> l.startsWith("advanced ")).split(" ")[1]);
    }

    /** Waits for batch {@code t}'s "submitted" line (recording what it took) and returns the lines it took. */
    long awaitSubmitted(long t) throws Exception {
        return count(awaitBatchLine("submitted " + t));
    }

    /** Waits for batch {@code t} to complete; returns whether it succeeded. */
    boolean awaitCompleted(long t) throws Exception {
        String line = awaitBatchLine("completed " + t);
        if (line.endsWith("failed=true")) {
            failedBatches.add(line);
            return false;
        }
        return true;
    }

    /** Runs one batch to its end; returns whether it succeeded. */
    boolean runBatch() throws Exception {
        long t = advance();
        awaitSubmitted(t);
        return awaitCompleted(t);
    }

    /** The current driver's line that starts with {@code kindAndTime} ("submitted 3000"), printed already or next. */
    private String awaitBatchLine(String kindAndTime) throws InterruptedException {
        String seen = batchLines.get(kindAndTime);
        return seen != null ? seen : await(l -> l.startsWith(kindAndTime + " "));
    }

    /**
     * The next line {@code wanted} matches; every batch line read on the way (batches a restarted driver runs
     * again included) updates the ledger, the newest report of a batch time replacing older ones.
     */
    private String await(Predicate<String> wanted) throws InterruptedException {
        try {
            return driver.awaitLine(l -> {
                if (l.startsWith("submitted ") || l.startsWith("completed ")) {
                    String[] words = l.split(" ");
                    taken.put(Long.parseLong(words[1]), count(l));
                    batchLines.put(words[0] + " " + words[1], l);
                }
                return wanted.test(l);
            }, TIMEOUT_S);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + diagnostics(), e);
        }
    }

    private static long count(String batchLine) {
        return Long.parseLong(batchLine.split(" ")[2].substring("socket=".length()));
    }

    /**
     * Runs batches until the driver ends with an error, at most {@code batches}; returns the error it printed
     * (its awaitTermination's) once it exited with 1.
     */
    String runUntilTerminated(int batches) throws Exception {
        driver.tell("batch");
        for (int completed = 0; completed < batches; ) {
            String line = await(l -> l.startsWith("terminated ") || l.startsWith("completed "));
            if (line.startsWith("terminated ")) {
                assertExit(1);
                return line.substring("terminated ".length());
            }
            if (line.endsWith("failed=true")) {
                failedBatches.add(line);
            }
            if (++completed < batches) {
                driver.tell("batch");
            }
        }
        throw new AssertionError("the driver ran " + batches + " batches without failing\n" + diagnostics());
    }

    private void assertExit(int expected) throws InterruptedException {
        int exit = driver.awaitExit(TIMEOUT_S);
        if (exit != expected) {
            throw new AssertionError("the driver exited with " + exit + ", not " + expected + "; " + diagnostics());
        }
    }

    /** Socket lines the batches took since the stream began. */
    long taken() {
        return taken.values().stream().mapToLong(Long::longValue).sum();
    }

    List<String> failedBatches() {
        return List.copyOf(failedBatches);
    }

    /** {@code kill -9} of the driver. */
    void kill() throws InterruptedException {
        driver.kill();
    }

    /** Stops the driver gracefully, failing if it does not exit cleanly. */
    void stop() throws Exception {
        driver.tell("stop");
        await("stopped"::equals);
        assertExit(0);
    }

    /** The current driver's standard error (its log), for what it reported. */
    List<String> log() throws IOException {
        return Files.readAllLines(dir.resolve("driver-" + (started - 1) + ".log"));
    }

    String diagnostics() {
        return driver == null ? "(no driver)" : "receiver events " + driver.seen().stream()
                .filter(l -> l.startsWith("receiver ")).toList() + "\nlines taken per batch " + taken + "\n"
                + driver.diagnostics();
    }

    @Override
    public void close() throws Exception {
        if (driver != null) {
            driver.close();
        }
    }
}
