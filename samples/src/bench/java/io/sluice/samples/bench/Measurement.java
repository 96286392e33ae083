package io.sluice.samples.bench;

import java.util.Locale;

/**
 * One side's result for one workload, as a forked JVM reports it to the benchmark on a single stdout line.
 *
 * @param value the workload's figure
 * @param outputDigest a digest of every batch's output, equal on both sides when the pipelines agree; "-" when
 *     the workload has no comparable output
 * @param detail how the figure came about (median, batch times), for the log
 */
public record Measurement(double value, String outputDigest, String detail) {
    static final String PREFIX = "BENCH-RESULT\t";

    public Measurement {
        if (Double.isNaN(value) || outputDigest.isBlank() || outputDigest.contains("\t") || detail.contains("\n")) {
            throw new IllegalArgumentException("bad measurement: " + value + ", " + outputDigest + ", " + detail);
        }
    }

    String toLine() {
        return PREFIX + String.format(Locale.ROOT, "%.6f", value) + "\t" + outputDigest + "\t" + detail;
    }

    /** The measurement in {@code line}, or null when the line is something else the JVM printed. */
    static Measurement parse(String line) {
        if (!line.startsWith(PREFIX)) {
            return null;
        }
        String[] parts = line.substring(PREFIX.length()).split("\t", 3);
        return new Measurement(Double.parseDouble(parts[0]), parts[1], parts.length > 2 ? parts[2] : "");
    }
}
