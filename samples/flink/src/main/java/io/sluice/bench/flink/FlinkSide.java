package io.sluice.bench.flink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The main class of the benchmark's Flink JVM (its class path is this module's alone): runs {@link
 * KeyedRunningCount} once to warm up, then {@code repetitions} times, checks every run gave the same output, and
 * prints the best repetition's throughput as samples' benchmark reads a measurement: one line {@code
 * BENCH-RESULT<tab>value<tab>output<tab>detail}.
 *
 * <p>Arguments: state backend (heap or rocksdb), batches, records per batch, keys, repetitions.
 */
public final class FlinkSide {
    private FlinkSide() {
    }

    public static void main(String[] args) {
        int status = 0;
        try {
            if (args.length != 5) {
                throw new IllegalArgumentException(
                        "usage: FlinkSide <heap|rocksdb> <batches> <records per batch> <keys> <repetitions>");
            }
            StateBackend backend = StateBackend.parse(args[0]);
            W2Records input = new W2Records(Integer.parseInt(args[1]), Long.parseLong(args[2]),
                    Integer.parseInt(args[3]));
            System.out.println(measure(backend, input, Integer.parseInt(args[4])));
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        System.out.flush();
        // the MiniCluster's executors may linger; the result is printed, so end the JVM here
        System.exit(status);
    }

    /** The result line: best repetition in records/s, the output, and every run's figures. */
    static String measure(StateBackend backend, W2Records input, int repetitions) throws Exception {
        if (repetitions < 1) {
            throw new IllegalArgumentException("need at least one repetition, got " + repetitions);
        }
        Path work = Files.createTempDirectory("sluice-bench-flink-");
        try (KeyedRunningCount counting = new KeyedRunningCount(backend, work)) {
            KeyedRunningCount.Run warmUp = counting.run(input);
            report("warm-up", warmUp);
            List<String> figures = new ArrayList<>();
            double best = 0;
            for (int r = 1; r <= repetitions; r++) {
                KeyedRunningCount.Run run = counting.run(input);
                report("repetition " + r, run);
                if (!run.check().equals(warmUp.check())) {
                    throw new IllegalStateException("Flink " + backend + ": repetition " + r + " gave '" + run.check()
                            + "', the warm-up '" + warmUp.check() + "'");
                }
                best = Math.max(best, run.recordsPerSecond());
                figures.add(String.format(Locale.ROOT, "%,.0f", run.recordsPerSecond()));
            }
            return "BENCH-RESULT\t" + String.format(Locale.ROOT, "%.6f", best) + "\t" + warmUp.check() + "\t"
                    + String.format(Locale.ROOT, "Flink %s state (%s), parallelism %d, %,d records; best of %d"
                            + " repetitions after a warm-up run, records/s %s", backend, warmUp.stateClass(),
                            KeyedRunningCount.PARALLELISM, input.total(), repetitions, String.join(", ", figures));
        } finally {
            deleteRecursively(work);
        }
    }

    private static void report(String what, KeyedRunningCount.Run run) {
        System.err.printf(Locale.ROOT, "%s: %,d records in %.0f ms (%,.0f records/s), job net runtime %d ms, state %s;"
                + " %s%n", what, run.records(), run.processingNanos() / 1e6, run.recordsPerSecond(), run.netRuntimeMs(),
                run.stateClass(), run.check());
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
