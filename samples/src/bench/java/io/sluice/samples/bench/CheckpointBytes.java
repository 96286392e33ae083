package io.sluice.samples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** W6: bytes written to the checkpoint directory by one full checkpoint of W5's 1,000,000-key state. */
final class CheckpointBytes implements Workload {
    @Override
    public String id() {
        return "W6";
    }

    @Override
    public String description() {
        return "bytes per full state checkpoint, 1,000,000 keys of mapWithState state";
    }

    @Override
    public Figure figure() {
        return Figure.lowerIsBetter("bytes per full state checkpoint", "MB");
    }

    @Override
    public double target() {
        return 0.5;
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        Path dir = Files.createTempDirectory("sluice-bench-w6-");
        try {
            RestartScenario.Phase setup = RestartScenario.fork(side, "setup", dir, "checkpoint-bytes ");
            long bytes = Long.parseLong(setup.line().substring("checkpoint-bytes ".length()).trim());
            return new Measurement(bytes / 1e6, "-", bytes + " bytes for " + RestartScenario.KEYS + " keys ("
                    + String.format(java.util.Locale.ROOT, "%.1f", bytes / (double) RestartScenario.KEYS)
                    + " bytes per key)");
        } finally {
            deleteRecursively(dir);
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
