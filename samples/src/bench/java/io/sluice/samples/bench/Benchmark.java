package io.sluice.samples.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the selected workloads on Sluice and on Spark Streaming (Flink for the rows against it), each side in its own
 * forked JVM with the same
 * flags (the add-opens this JVM got, and a 4 GB heap committed and touched at start, so that no batch pays the
 * kernel's first-touch page faults of a growing heap: they made batch times swing by 2x), the two sides one
 * after the other for every workload (a {@link ScalingWorkload}'s steps, on Sluice alone, one after the
 * other). Prints the table, and writes it to docs/performance.md after a run with the standard settings.
 *
 * <p>System properties: {@code workloads} (comma-separated ids, default all), {@code bench.batches}, {@code
 * bench.warmup}, {@code bench.interval.ms} (see {@link BenchSettings}), {@code bench.report} (the
 * performance.md to update), {@code bench.logs} (directory for each forked JVM's output), {@code bench.flink.home}
 * (samples/flink's build output, for the Flink side); other {@code bench.*} properties go on to the forked JVMs.
 */
public final class Benchmark {
    private Benchmark() {
    }

    public static void main(String[] args) throws Exception {
        BenchSettings settings = BenchSettings.fromSystemProperties();
        List<Workload> workloads = Workloads.select(System.getProperty("workloads", ""));
        Path logs = Path.of(System.getProperty("bench.logs", "target/bench"));
        Files.createDirectories(logs);
        Machine machine = Machine.current();
        System.out.println("Sluice benchmark: " + settings + "; machine: " + machine);
        List<Row> rows = new ArrayList<>();
        for (Workload w : workloads) {
            if (w instanceof ScalingWorkload scaling) {
                rows.add(scaling.measure(step -> fork(step, Side.SLUICE, settings, logs)));
            } else if (w instanceof LargeStateWorkload large) {
                rows.add(large.measure((step, limit) -> forkOnce(step, Side.SLUICE, settings, logs, limit), settings));
            } else {
                Measurement sluice = fork(w, Side.SLUICE, settings, logs);
                Measurement baseline = fork(w, w.baseline(), settings, logs);
                rows.add(new Row(w, sluice, baseline));
            }
        }
        System.out.println();
        printTable(rows);
        String report = System.getProperty("bench.report");
        if (report != null && settings.standard() && workloads.stream().allMatch(Workload::standard)) {
            PerformanceReport.update(Path.of(report), rows, machine);
            System.out.println("\nWrote " + report);
        } else {
            System.out.println("\nNot the standard settings: docs/performance.md left as it was.");
        }
    }

    private static Measurement fork(Workload w, Side side, BenchSettings settings, Path logs)
            throws IOException, InterruptedException {
        Forked forked = forkOnce(w, side, settings, logs, w.timeout(settings));
        if (forked.failure() != null) {
            throw new IllegalStateException(w.id() + " on " + side.label() + " failed (" + forked.failure()
                    + "); its output is in " + forked.log());
        }
        Measurement m = forked.measurement();
        System.out.println(w.id() + " on " + side.label() + ": " + w.figure().format(m.value()) + " ("
                + m.detail() + "; " + m.outputDigest() + ")");
        return m;
    }

    /** Runs one side in its own JVM (at most {@code limit}) and returns what it measured or why it failed. */
    private static Forked forkOnce(Workload w, Side side, BenchSettings settings, Path logs, Duration limit)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(w.heapFlags());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens")) {
                command.add(arg);
            }
        }
        command.addAll(List.of(settings.asJvmArguments()));
        command.addAll(workloadProperties());
        if (side == Side.FLINK) {
            command.addAll(((FlinkComparison) w).flinkMainAndArguments(settings));
        } else {
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), SideRunner.class.getName(), w.id(),
                    side.name()));
        }
        Path log = logs.resolve(w.id() + "-" + side.name().toLowerCase() + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // bound to the loopback address, as the settings' driver host (else Spark warns about the host name)
        builder.environment().putIfAbsent("SPARK_LOCAL_IP", "127.0.0.1");
        builder.environment().putAll(w.environment(logs));
        long start = System.nanoTime();
        Process process = builder.start();
        process.getOutputStream().close();
        AtomicReference<Measurement> result = new AtomicReference<>();
        Thread reader = new Thread(() -> copyOutput(process, log, result), "bench-output-" + w.id());
        reader.start();
        boolean ended = process.waitFor(limit.toSeconds(), TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly().waitFor();
        }
        reader.join();
        double seconds = (System.nanoTime() - start) / 1e9;
        if (!ended) {
            return new Forked(null, "did not finish within " + limit.toSeconds() + " s", seconds, log);
        }
        if (process.exitValue() != 0 || result.get() == null) {
            return new Forked(null, Forked.failureIn(log, process.exitValue()), seconds, log);
        }
        return new Forked(result.get(), null, seconds, log);
    }

    /** This JVM's workload-specific bench.* properties (e.g. bench.w8.keys), for the forked JVMs. */
    private static List<String> workloadProperties() {
        List<String> own = List.of("bench.batches", "bench.warmup", "bench.interval.ms", "bench.report", "bench.logs",
                FlinkComparison.FLINK_HOME);
        return System.getProperties().stringPropertyNames().stream()
                .filter(k -> k.startsWith("bench.") && !own.contains(k)).sorted()
                .map(k -> "-D" + k + "=" + System.getProperty(k)).toList();
    }

    /** Copies the forked JVM's output to its log, keeping the measurement line. */
    private static void copyOutput(Process process, Path log, AtomicReference<Measurement> result) {
        // flushed line by line, so that a long run can be followed in its log
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); PrintWriter copy = new PrintWriter(Files.newBufferedWriter(log), true)) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                copy.println(line);
                Measurement m = Measurement.parse(line);
                if (m != null) {
                    result.set(m);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("copying benchmark output to " + log, e);
        }
    }

    static void printTable(List<Row> rows) {
        String[] header = {"workload", "figure", "Sluice", "Spark Streaming (or Flink)", "ratio", "target", "result"};
        List<String[]> table = new ArrayList<>();
        table.add(header);
        for (Row row : rows) {
            String[] c = row.cells();
            table.add(new String[] {c[0], c[2], c[3], c[4], c[5], c[6], c[7]});
        }
        int[] widths = new int[header.length];
        for (String[] r : table) {
            for (int i = 0; i < r.length; i++) {
                widths[i] = Math.max(widths[i], r[i].length());
            }
        }
        for (String[] r : table) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                line.append(String.format("%-" + widths[i] + "s", r[i])).append(i + 1 < r.length ? "  " : "");
            }
            System.out.println(line.toString().stripTrailing());
        }
    }
}
