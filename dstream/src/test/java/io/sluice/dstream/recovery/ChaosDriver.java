package io.sluice.dstream.recovery;

import io.sluice.dstream.testing.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One run of {@link ChaosApp} (its checkpoint, output and input directories) and its current driver JVM: starts
 * and kills drivers, reads their progress lines and keeps the ledger of what each batch took from each source.
 */
final class ChaosDriver implements AutoCloseable {
    private static final long TIMEOUT_S = 600;

    private final Path dir;
    private final Map<String, String> env;
    private final int port;
    private final List<String> jvm;
    private final long intervalMs;
    private final ChaosRun.Ledger ledger = new ChaosRun.Ledger();
    private ChildJvm driver;
    private int started;
    private int failedBatches;
    private boolean checkpointed;

    ChaosDriver(Path dir, Map<String, String> env, int port, List<String> jvm, long intervalMs)
            throws IOException {
        this.dir = Files.createDirectories(dir);
        this.env = env;
        this.port = port;
        this.jvm = jvm;
        this.intervalMs = intervalMs;
        Files.createDirectories(input());
    }

    Path input() {
        return dir.resolve("input");
    }

    /** Starts a driver on the run's checkpoint and waits until its executors registered. */
    void start() throws Exception {
        driver = ChildJvm.start(ChaosApp.class, jvm, List.of(dir.resolve("checkpoint").toString(),
                dir.resolve("out").toString(), input().toString(), String.valueOf(port), String.valueOf(intervalMs)),
                dir.resolve("driver-" + started++ + ".log"), env);
        String recovered = driver.awaitLine(l -> l.startsWith("recovered "), TIMEOUT_S)
                .substring("recovered ".length());
        ledger.restart(recovered.equals("none") ? Long.MIN_VALUE : Long.parseLong(recovered));
        driver.awaitLine("executors 2"::equals, TIMEOUT_S);
    }

    /** The next progress line ("submitted", "output" or "completed"), recorded in the ledger. */
    String next() throws Exception {
        String line = driver.awaitLine(l -> l.startsWith("submitted ") || l.startsWith("output ")
                || l.startsWith("completed "), TIMEOUT_S);
        if (!line.startsWith("output ")) {
            String[] f = line.split(" ");
            boolean completed = f[0].equals("completed");
            ledger.report(Long.parseLong(f[1]), count(f[2]), count(f[3]), completed);
            if (completed && line.endsWith("failed=true")) {
                failedBatches++;
            }
        }
        return line;
    }

    /** Whether a checkpoint was written (a driver killed before its first one rightly starts afresh). */
    boolean checkpointed() throws IOException {
        if (!checkpointed) {
            Path progress = dir.resolve("checkpoint").resolve("progress");
            checkpointed = Files.isDirectory(progress)
                    && DriverKillTest.listNames(progress).stream().anyMatch(n -> n.startsWith("checkpoint-"));
        }
        return checkpointed;
    }

    /** Socket lines the batches took (submitted or completed) since the stream began. */
    long socketTaken() {
        return ledger.socket();
    }

    int failedBatches() {
        return failedBatches;
    }

    /** The driver's executor JVMs (children of its in-process Workers). */
    List<ProcessHandle> executors() throws IOException {
        List<ProcessHandle> found = new ArrayList<>();
        for (ProcessHandle p : driver.handle().descendants().toList()) {
            Path cmdline = Path.of("/proc", String.valueOf(p.pid()), "cmdline");
            try {
                if (new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8)
                        .contains("CoarseGrainedExecutorBackend") && p.isAlive()) {
                    found.add(p);
                }
            } catch (IOException e) {
                // exited meanwhile
            }
        }
        return found;
    }

    /** {@code kill -9} of the driver, then waits until its executor JVMs noticed and exited too. */
    void killDriver() throws Exception {
        List<ProcessHandle> children = driver.handle().descendants().toList();
        driver.kill();
        for (ProcessHandle child : children) {
            child.onExit().get(TIMEOUT_S, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /**
     * Waits until completed batches took all the input, then for {@link ChaosApp#WINDOW_BATCHES} + 1 more (so
     * every record left every window), and stops the driver gracefully.
     */
    void finish(long socketLines, long files) throws Exception {
        while (!ledger.allCompleted(socketLines, files * ChaosInput.LINES_PER_FILE)) {
            next();
        }
        for (int drained = 0; drained <= ChaosApp.WINDOW_BATCHES; ) {
            if (next().startsWith("completed ")) {
                drained++;
            }
        }
        driver.tell("stop");
        driver.awaitLine("stopped"::equals, TIMEOUT_S);
        int exit = driver.awaitExit(TIMEOUT_S);
        if (exit != 0) {
            throw new AssertionError("the driver exited with " + exit + "; " + driver.diagnostics());
        }
    }

    static long time(String line) {
        return Long.parseLong(line.split(" ")[1]);
    }

    static long delay(String line) {
        for (String f : line.split(" ")) {
            if (f.startsWith("delay=")) {
                return Long.parseLong(f.substring("delay=".length()));
            }
        }
        throw new IllegalArgumentException("no delay in " + line);
    }

    private static long count(String field) {
        return Long.parseLong(field.substring(field.indexOf('=') + 1));
    }

    @Override
    public void close() throws Exception {
        if (driver != null) {
            driver.close();
        }
    }
}
