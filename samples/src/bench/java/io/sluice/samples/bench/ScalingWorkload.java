package io.sluice.samples.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * A workload that compares Sluice with itself (W7, RP): the same pipeline in a few steps of one setting (keys in
 * state, executors, the clock), each step a workload of its own measured on Sluice alone in its own forked JVM, one
 * after the other. Its figure is the last step's over the first step's, checked against the target as it is (no
 * Spark Streaming side: the steps would double the run's time, and the target is Sluice's own).
 */
final class ScalingWorkload implements Workload {
    /** One step: how the table labels it (e.g. "1M keys") and the workload measured there. */
    record Step(String label, Workload workload) {
    }

    /** Runs a step's Sluice side in a forked JVM (the benchmark's fork) and returns what it measured. */
    interface SluiceFork {
        Measurement run(Workload step) throws Exception;
    }

    private final String id;
    private final String description;
    private final Figure figure;
    private final double target;
    private final List<Step> steps;

    ScalingWorkload(String id, String description, Figure figure, double target, List<Step> steps) {
        if (steps.size() < 2) {
            throw new IllegalArgumentException(id + ": a scaling workload compares at least two steps");
        }
        this.id = id;
        this.description = description;
        this.figure = figure;
        this.target = target;
        this.steps = List.copyOf(steps);
    }

    /**
     * W7a: W2b's shape (mapWithState running count, 10,000 records per batch over all the keys, 4 state
     * partitions) with 100,000, 500,000 and 1,000,000 keys pre-loaded; median ms per batch, 1M over 100k.
     */
    static ScalingWorkload stateGrowth() {
        return new ScalingWorkload("W7a", "W2b's shape as state grows from 100,000 to 1,000,000 keys",
                Figure.lowerIsBetter("median ms per batch; ratio 1M / 100k keys", "ms"), 1.2, List.of(
                        new Step("100k keys", new MapWithStateLargeStateWorkload("W7a-100k", 100_000)),
                        new Step("500k keys", new MapWithStateLargeStateWorkload("W7a-500k", 500_000)),
                        new Step("1M keys", new MapWithStateLargeStateWorkload("W7a-1M", 1_000_000))));
    }

    /** W7b: W2 on local-cluster with 1 and with 2 executors of 1 core; throughput, 2 executors over 1. */
    static ScalingWorkload scaleOut() {
        MapWithStateWorkload w2 = new MapWithStateWorkload();
        return new ScalingWorkload("W7b", "W2 on local-cluster with 1 and 2 executors of 1 core (executor JVMs)",
                new Figure("throughput; ratio 2 / 1 executors", "records/s", true), 1.7, List.of(
                        new Step("1 executor", new OnLocalCluster(w2, "W7b-1", 1)),
                        new Step("2 executors", new OnLocalCluster(w2, "W7b-2", 2))));
    }

    @Override
    public List<Workload> steps() {
        return steps.stream().map(Step::workload).toList();
    }

    /**
     * RP: issue #19's replay pipeline ({@link ReplayRun}) over a recorded access log, on the wall clock and
     * fast-forward on a replay clock; batches per second, fast-forward over the wall clock.
     */
    static ScalingWorkload replay() {
        return new ScalingWorkload("RP", "replay: 60 s window count + mapWithState count, saveAsTextFiles, "
                + "1,000 records per 1 s batch", new Figure("batches per second; ratio fast-forward / wall clock",
                        "batches/s", true), 100, List.of(
                        new Step("wall clock", new ReplayRun("RP-wall", false)),
                        new Step("fast-forward", new ReplayRun("RP-ff", true))));
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Figure figure() {
        return figure;
    }

    @Override
    public double target() {
        return target;
    }

    /** Measures every step on Sluice, in order; the row's figure is the last step's over the first's. */
    Row measure(SluiceFork fork) throws Exception {
        List<Measurement> measured = new ArrayList<>();
        for (Step step : steps) {
            measured.add(fork.run(step.workload()));
        }
        return row(measured);
    }

    /** The row of the steps' measurements (in step order): the ratio, and each step's figure as the table shows it. */
    Row row(List<Measurement> measured) {
        List<String> figures = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            figures.add(step.label() + " " + step.workload().figure().format(measured.get(i).value()));
        }
        double ratio = measured.get(measured.size() - 1).value() / measured.get(0).value();
        return new Row(this, new Measurement(ratio, "-", String.join(", ", figures)), null);
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) {
        throw new UnsupportedOperationException(id + " is measured step by step, each step in its own JVM: run "
                + String.join(", ", steps().stream().map(Workload::id).toList()) + " instead");
    }
}
