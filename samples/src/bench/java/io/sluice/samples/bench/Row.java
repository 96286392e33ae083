package io.sluice.samples.bench;

import java.util.Locale;

/**
 * One workload's result: both sides' figures, their ratio and whether it meets the target. {@code sparkStreaming}
 * is the workload's baseline (Flink's figure for the rows against Flink). For a {@link ScalingWorkload}, it is null and Sluice's measurement is already the ratio (its detail
 * lists the steps' figures).
 */
record Row(Workload workload, Measurement sluice, Measurement sparkStreaming) {
    double ratio() {
        return sparkStreaming == null ? sluice.value() : sluice.value() / sparkStreaming.value();
    }

    /** Whether both sides produced the same outputs (a check that the two pipelines are the same). */
    boolean outputsAgree() {
        return sparkStreaming == null || sluice.outputDigest().equals(sparkStreaming.outputDigest());
    }

    String result() {
        if (!outputsAgree()) {
            return "FAIL (outputs differ)";
        }
        return workload.figure().passes(ratio(), workload.target()) ? "pass" : "FAIL";
    }

    /** The baseline's figure, named when it is not Spark Streaming (the column's engine). */
    private String baselineCell() {
        String figure = workload.figure().format(sparkStreaming.value());
        Side baseline = workload.baseline();
        return baseline == Side.SPARK_STREAMING ? figure : baseline.label() + ": " + figure;
    }

    /** The cells of a table row: workload, pipeline, figure, Sluice, Spark Streaming, ratio, target, result. */
    String[] cells() {
        Figure f = workload.figure();
        boolean engines = sparkStreaming != null;
        return new String[] {workload.id(), workload.description(), f.name(),
            engines ? f.format(sluice.value()) : sluice.detail(), engines ? baselineCell() : "–",
            String.format(Locale.ROOT, "%.2f×", ratio()), f.describeTarget(workload.target()), result()};
    }
}
