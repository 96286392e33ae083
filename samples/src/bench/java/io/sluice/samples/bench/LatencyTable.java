package io.sluice.samples.bench;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** L1's per-interval table, as a side's log prints it and docs/performance.md shows it, and the side's figure. */
final class LatencyTable {
    static final String[] HEADER = {"interval", "sustained", "p50", "p99", "max", "records reached an output",
        "batches in the window", "worst scheduling delay, last 20 batches"};

    private LatencyTable() {
    }

    static void print(Side side, List<LatencyRecorder.Result> results) {
        System.out.println("L1 on " + side.label() + ":");
        System.out.println(PerformanceReport.tableLine(HEADER));
        for (LatencyRecorder.Result r : results) {
            System.out.println(PerformanceReport.tableLine(r.cells()));
        }
    }

    /**
     * The best p99 over the sustained intervals (infinite when none is), with the smallest sustained interval's
     * p50, p99 and max and every interval's figures in the detail.
     */
    static Measurement measurement(List<LatencyRecorder.Result> results) {
        List<LatencyRecorder.Result> sustained = results.stream().filter(LatencyRecorder.Result::sustained).toList();
        Optional<LatencyRecorder.Result> smallest = sustained.stream()
                .min(Comparator.comparingLong(LatencyRecorder.Result::intervalMs));
        Optional<LatencyRecorder.Result> best = sustained.stream()
                .min(Comparator.comparingLong(LatencyRecorder.Result::p99));
        StringBuilder detail = new StringBuilder();
        if (smallest.isEmpty()) {
            detail.append("no interval sustained");
        } else {
            LatencyRecorder.Result s = smallest.get();
            detail.append("smallest sustained interval ").append(s.intervalMs()).append(" ms: p50 ").append(s.p50())
                    .append(" ms, p99 ").append(s.p99()).append(" ms, max ").append(s.max()).append(" ms; best p99 at ")
                    .append(best.get().intervalMs()).append(" ms");
        }
        for (LatencyRecorder.Result r : results) {
            detail.append("; ").append(r);
        }
        return new Measurement(best.map(r -> (double) r.p99()).orElse(Double.POSITIVE_INFINITY), "-",
                detail.toString());
    }
}
