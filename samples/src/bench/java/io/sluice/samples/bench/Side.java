package io.sluice.samples.bench;

/**
 * The engines a benchmark compares, each run in its own JVM (the serializer is per SparkContext). Sluice is always
 * one side; the other, a workload's {@link Workload#baseline()}, is Spark Streaming except for the rows against
 * Flink ({@link FlinkComparison}).
 */
public enum Side {
    SLUICE("Sluice"),
    SPARK_STREAMING("Spark Streaming"),
    /** Flink 2.3.0, in a JVM whose class path is the samples/flink module's (no Spark there). */
    FLINK("Flink 2.3.0");

    private final String label;

    Side(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
