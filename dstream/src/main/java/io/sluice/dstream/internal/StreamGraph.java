package io.sluice.dstream.internal;

import io.sluice.dstream.internal.state.StatePlacement;

import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.dstream.source.BatchReport;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.ExecutorPeers;
import io.sluice.rdd.internal.JobTags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The running graph of one context, built once at start from its frozen {@link GraphDescription}: every
 * stream's operator (parents first), the output operations, and the batches a restart skips. It only
 * generates jobs and forgets old RDDs.
 */
public final class StreamGraph {
    /** Spark's local properties for the call site of what a thread makes ({@code CallSite.SHORT_FORM}, LONG_FORM). */
    private static final String SHORT_CALL_SITE = "callSite.short";
    private static final String LONG_CALL_SITE = "callSite.long";
    private final JavaSparkContext sc;
    private final Duration batchInterval;
    private final List<Operator<?>> operators;
    private final List<InputOperator<?>> inputs;
    private final List<OutputOperation<?>> outputs;
    private final Set<Time> skipped;
    private final StatePlacement statePlacement;

    /**
     * Builds the operators of {@code description} (validated and frozen) with zero time {@code zero}.
     *
     * @param skipped batches a restarted driver skips (missed while it was down, and the user chose to skip
     *                them): every source gives an empty RDD at these times, so they add nothing to state or windows
     */
    public StreamGraph(JavaSparkContext sc, GraphDescription description, Time zero, Set<Time> skipped,
            StartPlan plan) {
        this.sc = sc;
        // placement orders the executors itself; local mode has none (and skips asking the master)
        this.statePlacement = new StatePlacement(() -> sc.sc().isLocal() ? List.of() : ExecutorPeers.of(sc.sc()));
        this.batchInterval = description.batchInterval();
        this.skipped = Set.copyOf(skipped);
        List<Duration> remember = description.rememberDurations();
        List<Operator<?>> built = new ArrayList<>();
        List<InputOperator<?>> sources = new ArrayList<>();
        for (Node<?> node : description.nodes()) {
            List<Operator<?>> parents = new ArrayList<>();
            node.parents().forEach(p -> parents.add(built.get(p.id())));
            Operator<?> op = node.factory().build(new Operator.Config(this, node, description.settings(node), zero,
                    remember.get(node.id()), parents, plan));
            built.add(op);
            if (op instanceof InputOperator<?> input) {
                sources.add(input);
            }
        }
        this.operators = List.copyOf(built);
        this.inputs = List.copyOf(sources);
        List<OutputOperation<?>> outs = new ArrayList<>();
        for (GraphDescription.Output<?> out : description.outputs()) {
            outs.add(output(out, outs.size()));
        }
        this.outputs = List.copyOf(outs);
    }

    private <T> OutputOperation<T> output(GraphDescription.Output<T> out, int id) {
        @SuppressWarnings("unchecked")
        Operator<T> parent = (Operator<T>) operators.get(out.parent().id());
        return new OutputOperation<>(parent, out.kind(), out.callSite(), out.action(), id);
    }

    public boolean isSkipped(Time time) {
        return !skipped.isEmpty() && skipped.contains(time);
    }

    /** The jobs of batch {@code time}, one per output operation that has an RDD at that time, in order. */
    public List<Job> generateJobs(Time time) {
        List<Job> jobs = new ArrayList<>();
        try {
            for (OutputOperation<?> out : outputs) {
                // Spark jobs run while computing the batch's RDDs on the driver (a transform that counts, a range
                // partitioner's sampling) belong to the batch and to the output that asked for them.
                JobTags.tag(sc.sc(), time.milliseconds(), out.callSite());
                out.generateJob(time).ifPresent(jobs::add);
            }
        } finally {
            JobTags.clear(sc.sc());
        }
        return jobs;
    }

    /** What each input reported for batch {@code time}, by its name (inputs of the same name summed). */
    public Map<String, BatchReport> inputReport(Time time) {
        Map<String, BatchReport> reports = new LinkedHashMap<>();
        for (InputOperator<?> input : inputs) {
            String name = input.name() != null ? input.name() : input.callSite();
            reports.merge(name, input.report(time), BatchReport::plus);
        }
        return reports;
    }

    /** Each stateful operator's figures of completed batch {@code time}, by stable id, in creation order. */
    public Map<String, StateOperatorInfo> stateReport(Time time) {
        Map<String, StateOperatorInfo> reports = new LinkedHashMap<>();
        for (Operator<?> op : operators) {
            op.stateReport(time).ifPresent(r -> reports.put(op.stableId(), r));
        }
        return reports;
    }

    /** Forgets every RDD the operators keep (the context stopped; the SparkContext may go on). */
    public void release() {
        operators.forEach(Operator::release);
    }

    public void clearOlderThanNeeded(Time time) {
        for (OutputOperation<?> out : outputs) {
            out.parent().clearOlderThanNeeded(time);
        }
    }

    /**
     * Runs {@code body} with {@code callSite} as the call site of the RDDs and jobs it makes, in both of Spark's
     * forms: with the long form unset too, Spark would walk the thread's stack for every RDD made (most of the
     * time spent generating a batch).
     */
    <R> R withCallSite(String callSite, Supplier<R> body) {
        String previousShort = sc.getLocalProperty(SHORT_CALL_SITE);
        String previousLong = sc.getLocalProperty(LONG_CALL_SITE);
        sc.setLocalProperty(SHORT_CALL_SITE, callSite);
        sc.setLocalProperty(LONG_CALL_SITE, callSite);
        try {
            return body.get();
        } finally {
            sc.setLocalProperty(SHORT_CALL_SITE, previousShort);
            sc.setLocalProperty(LONG_CALL_SITE, previousLong);
        }
    }

    /** Where the stateful operators' state partitions run: spread over the executors (none in local mode). */
    public StatePlacement statePlacement() {
        return statePlacement;
    }

    public JavaSparkContext sparkContext() {
        return sc;
    }

    public Duration batchInterval() {
        return batchInterval;
    }

    /** The operators, in creation order (the operator of node {@code i} at index {@code i}). */
    public List<Operator<?>> operators() {
        return operators;
    }

    public List<InputOperator<?>> inputs() {
        return inputs;
    }

    public List<OutputOperation<?>> outputs() {
        return outputs;
    }
}
