package io.sluice.samples.bench;

/** The two engines a benchmark compares, each run in its own JVM (the serializer is per SparkContext). */
public enum Side {
    SLUICE("Sluice"),
    SPARK_STREAMING("Spark Streaming");

    private final String label;

    Side(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
