package io.sluice.samples.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * One benchmark workload of docs/benchmark.md, defined once for both engines. Register it in {@link
 * Workloads}. Most workloads are a pipeline over the standard queue input: implement {@link BatchWorkload}.
 * Workloads measured some other way (a restart, bytes on disk) implement {@link #run} themselves.
 */
public interface Workload {
    /** Short id used on the command line and in tables, e.g. "W1". */
    String id();

    /** The pipeline or scenario in a few words, for tables. */
    String description();

    Figure figure();

    /** Target for Sluice's figure divided by Spark Streaming's (see {@link Figure#passes}). */
    double target();

    /**
     * Environment variables the forked JVM of this workload needs besides the benchmark's own (e.g. a SPARK_HOME for
     * a local cluster); {@code dir} is the benchmark's working directory, for any files they name.
     */
    default Map<String, String> environment(Path dir) throws IOException {
        return Map.of();
    }

    /** The engine Sluice is measured against: Spark Streaming, unless the workload says otherwise. */
    default Side baseline() {
        return Side.SPARK_STREAMING;
    }

    /** The heap flags of this workload's forked JVMs: a 4 GB heap committed and touched at start, unless it says otherwise. */
    default java.util.List<String> heapFlags() {
        return java.util.List.of("-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch");
    }

    /** The workloads measured in their own forked JVMs to make this one's row ({@link ScalingWorkload}, W8); usually none. */
    default java.util.List<Workload> steps() {
        return java.util.List.of();
    }

    /** Whether its own settings (bench.w8.*, bench.flink.*) are the defaults: else the run does not update the report. */
    default boolean standard() {
        return true;
    }

    /** How long one side's forked JVM may take before the benchmark kills it and fails the workload. */
    default java.time.Duration timeout(BenchSettings settings) {
        return settings.interval().multipliedBy(settings.batches() + 20L).plusSeconds(180);
    }

    /** Measures one side in this JVM (the benchmark forks one JVM per side and workload). */
    Measurement run(Side side, BenchSettings settings) throws Exception;
}
