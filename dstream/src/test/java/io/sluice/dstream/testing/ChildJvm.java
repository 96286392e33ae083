package io.sluice.dstream.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A main class of the test sources run in its own JVM, on the test JVM's class path: for tests that kill a
 * driver with {@code kill -9}. Its standard output is read line by line (tests wait on progress lines, never
 * on time); its standard error goes to a log file that failures quote.
 */
public final class ChildJvm implements AutoCloseable {
    /** What Spark needs on Java 17. */
    public static final List<String> ADD_OPENS = List.of(
            "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED");
    private static final String END = "\u0000end";

    private final Process process;
    private final Path log;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();

    private ChildJvm(Process process, Path log) {
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
                // the process was killed
            } finally {
                lines.add(END);
            }
        }, "child-jvm-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code main} with {@code args}; JVM flags for a small, quickly starting driver. */
    public static ChildJvm start(Class<?> main, List<String> jvmFlags, List<String> args, Path log) throws IOException {
        return start(main, jvmFlags, args, log, java.util.Map.of());
    }

    /** As {@link #start(Class, List, List, Path)}, with extra environment variables. */
    public static ChildJvm start(Class<?> main, List<String> jvmFlags, List<String> args, Path log,
            java.util.Map<String, String> env) throws IOException {
        return start(System.getProperty("java.class.path"), main.getName(), jvmFlags, args, log, env);
    }

    /**
     * As {@link #start(Class, List, List, Path, java.util.Map)}, with another class path: a main class that is not
     * on the test's (spark-submit on Spark's jars alone, the application in its own jar).
     */
    public static ChildJvm start(String classPath, String main, List<String> jvmFlags, List<String> args, Path log,
            java.util.Map<String, String> env) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ADD_OPENS);
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(classPath);
        command.add(main);
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
        builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        builder.environment().putAll(env);
        return new ChildJvm(builder.start(), log);
    }

    /**
     * Blocks until the child prints a line matching {@code wanted} (returned), failing if it exits first or
     * {@code timeoutSeconds} pass in all (a child that keeps printing other lines cannot hang the test).
     */
    public String awaitLine(Predicate<String> wanted, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("the child printed nothing expected for " + timeoutSeconds + " s; "
                        + threadDump() + diagnostics());
            }
            if (line.equals(END)) {
                lines.add(END);
                throw new AssertionError("the child ended before printing what was expected; " + diagnostics());
            }
            seen.add(line);
            if (wanted.test(line)) {
                return line;
            }
        }
    }

    /**
     * Where a thread dump of the stuck child was written ({@code jcmd <pid> Thread.print}, next to its log), for
     * a failure to say what it was waiting on; a note of why there is none otherwise.
     */
    private String threadDump() {
        Path dump = log.resolveSibling(log.getFileName() + ".threads");
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        try {
            Process p = new ProcessBuilder(jcmd, Long.toString(process.pid()), "Thread.print")
                    .redirectErrorStream(true).redirectOutput(dump.toFile()).start();
            return p.waitFor(30, TimeUnit.SECONDS) ? "its threads are in " + dump + "; " : "jcmd did not answer; ";
        } catch (IOException e) {
            return "no thread dump (" + e.getMessage() + "); ";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "no thread dump (interrupted); ";
        }
    }

    /** Waits for the child to exit by itself and returns its exit code. */
    public int awaitExit(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the child did not exit within " + timeoutSeconds + " s; " + diagnostics());
        }
        return process.exitValue();
    }

    /** Writes {@code line} to the child's standard input. */
    public void tell(String line) throws IOException {
        process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    /** {@code kill -9}: no shutdown hook, no flush, no goodbye. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    public long pid() {
        return process.pid();
    }

    public ProcessHandle handle() {
        return process.toHandle();
    }

    /** Every line read so far. */
    public List<String> seen() {
        return List.copyOf(seen);
    }

    public String diagnostics() {
        String tail;
        try {
            List<String> all = Files.readAllLines(log);
            tail = String.join("\n", all.subList(Math.max(0, all.size() - 40), all.size()));
        } catch (IOException e) {
            tail = "(no log: " + e + ")";
        }
        return "last lines read: " + seen.subList(Math.max(0, seen.size() - 10), seen.size())
                + "\n--- stderr tail (" + log + ") ---\n" + tail;
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
