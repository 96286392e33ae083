package io.sluice.samples.bench;

/**
 * One benchmark workload of /work/shared/BENCHMARKS.md, defined once for both engines. Register it in {@link
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

    /** Measures one side in this JVM (the benchmark forks one JVM per side and workload). */
    Measurement run(Side side, BenchSettings settings) throws Exception;
}
