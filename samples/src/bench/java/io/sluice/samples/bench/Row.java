package io.sluice.samples.bench;

import java.util.Locale;

/** One workload's result: both sides' figures, their ratio and whether it meets the target. */
record Row(Workload workload, Measurement sluice, Measurement sparkStreaming) {
    double ratio() {
        return sluice.value() / sparkStreaming.value();
    }

    /** Whether both sides produced the same outputs (a check that the two pipelines are the same). */
    boolean outputsAgree() {
        return sluice.outputDigest().equals(sparkStreaming.outputDigest());
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
        return new String[] {workload.id(), workload.description(), f.name(), f.format(sluice.value()),
            f.format(sparkStreaming.value()), String.format(Locale.ROOT, "%.2f×", ratio()), f.describeTarget(workload.target()),
            result()};
    }
}
