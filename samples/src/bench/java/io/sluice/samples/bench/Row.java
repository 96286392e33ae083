package io.sluice.samples.bench;

import java.util.Locale;

/**
 * One workload's result: both sides' figures, their ratio and whether it meets the target. For a {@link
 * ScalingWorkload}, {@code sparkStreaming} is null and Sluice's measurement is already the ratio (its detail
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

    /** The cells of a table row: workload, pipeline, figure, Sluice, Spark Streaming, ratio, target, result. */
    String[] cells() {
        Figure f = workload.figure();
        boolean engines = sparkStreaming != null;
        return new String[] {workload.id(), workload.description(), f.name(),
            engines ? f.format(sluice.value()) : sluice.detail(), engines ? f.format(sparkStreaming.value()) : "–",
            String.format(Locale.ROOT, "%.2f×", ratio()), f.describeTarget(workload.target()), result()};
    }
}
