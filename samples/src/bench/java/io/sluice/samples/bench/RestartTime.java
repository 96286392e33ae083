package io.sluice.samples.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** W5: JVM start to the first completed batch of a restart after a crash with 1,000,000 keys in state. */
final class RestartTime implements Workload {
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
        return 0.5;
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        Path dir = Files.createTempDirectory("sluice-bench-w5-");
        try {
            RestartScenario.fork(side, "setup", dir, "checkpoint-bytes ");
            RestartScenario.Phase restart = RestartScenario.fork(side, "restart", dir, "first-batch");
            return new Measurement(restart.seconds(), "-", String.format(Locale.ROOT,
                    "restart of a killed driver with %,d keys: %.2f s from JVM start to its first completed batch",
                    RestartScenario.KEYS, restart.seconds()));
        } finally {
            CheckpointBytes.deleteRecursively(dir);
        }
    }
}
