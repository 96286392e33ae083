package io.sluice.samples.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * W5: JVM start to the first completed batch of a restart after a crash with 1,000,000 keys in state. A
 * restart is one sample of a JVM's start, so the scenario (set up, crash, restart) runs {@value #RESTARTS}
 * times, each in a fresh checkpoint directory (Spark Streaming's checkpoints name absolute paths, so a copy
 * of one would not be independent of it); the figure is the median restart.
 */
final class RestartTime implements Workload {
    private static final int RESTARTS = 3;

    @Override
    public String id() {
        return "W5";
    }

    @Override
    public String description() {
        return "restart with getOrCreate after a crash, 1,000,000 keys of mapWithState state";
    }

    @Override
    public Figure figure() {
        return Figure.lowerIsBetter("JVM start to first completed batch", "s");
    }

    @Override
    public double target() {
        return 0.33;
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        List<Double> seconds = new ArrayList<>();
        for (int i = 0; i < RESTARTS; i++) {
            Path dir = Files.createTempDirectory("sluice-bench-w5-");
            try {
                RestartScenario.fork(side, "setup", dir, "checkpoint-bytes ");
                seconds.add(RestartScenario.fork(side, "restart", dir, "first-batch").seconds());
            } finally {
                CheckpointBytes.deleteRecursively(dir);
            }
        }
        double median = BatchTimes.median(seconds);
        return new Measurement(median, "-", String.format(Locale.ROOT,
                "restarts of a killed driver with %,d keys: median %.2f s from JVM start to the first completed batch "
                        + "[%s]", RestartScenario.KEYS, median, seconds.stream()
                        .map(s -> String.format(Locale.ROOT, "%.2f", s)).collect(Collectors.joining(", "))));
    }
}
