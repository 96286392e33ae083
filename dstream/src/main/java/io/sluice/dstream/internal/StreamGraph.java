package io.sluice.dstream.internal;

import io.sluice.dstream.internal.state.StatePlacement;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.dstream.source.BatchReport;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.ExecutorPeers;
import io.sluice.rdd.internal.JobTags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The running graph of one context, built once at start from its frozen {@link GraphDescription}: every
 * stream's operator (parents first, each given the same {@link OperatorContext}), the output operations, and
 * the sources among the operators. On the scheduler's event loop it generates a batch's jobs (one per output
 * that has an RDD at that time, tagged with the batch and the output's call site), gathers what the sources
 * and the stateful operators report of a completed batch, and has the operators forget the RDDs no later batch
 * needs; when the context stops it releases every RDD they keep.
 */
public final class StreamGraph {
    private final OperatorContext context;
    private final List<Operator<?>> operators;
    private final List<SourceOperator<?>> inputs;
    private final List<OutputOperation<?>> outputs;

    /**
     * Builds the operators of {@code description} (validated and frozen) with zero time {@code zero}.
     *
     * @param skipped batches a restarted driver skips (missed while it was down, and the user chose to skip
     *                them): every source gives an empty RDD at these times, so they add nothing to state or windows
     */
    public StreamGraph(JavaSparkContext sc, GraphDescription description, Time zero, Set<Time> skipped,
            StartPlan plan) {
        // placement orders the executors itself; local mode has none (and skips asking the master)
        StatePlacement placement = new StatePlacement(() -> sc.sc().isLocal() ? List.of() : ExecutorPeers.of(sc.sc()));
        this.context = new OperatorContext(sc, new BatchGrid(zero, description.batchInterval()), skipped, placement);
        List<Duration> remember = description.rememberDurations();
        List<Operator<?>> built = new ArrayList<>();
        List<SourceOperator<?>> sources = new ArrayList<>();
        for (Node<?> node : description.nodes()) {
            List<Operator<?>> parents = new ArrayList<>();
            node.parents().forEach(p -> parents.add(built.get(p.id())));
            Operator<?> op = node.factory().build(new Operator.Config(context, node, description.settings(node),
                    remember.get(node.id()), parents, plan));
            built.add(op);
            if (op instanceof SourceOperator<?> input) {
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

    /** The jobs of batch {@code time}, one per output operation that has an RDD at that time, in order. */
    public List<Job> generateJobs(Time time) {
        List<Job> jobs = new ArrayList<>();
        try {
            for (OutputOperation<?> out : outputs) {
                // Spark jobs run while computing the batch's RDDs on the driver (a transform that counts, a range
                // partitioner's sampling) belong to the batch and to the output that asked for them.
                JobTags.tag(context.sparkContext().sc(), time.milliseconds(), out.callSite());
                out.generateJob(time).ifPresent(jobs::add);
            }
        } finally {
            JobTags.clear(context.sparkContext().sc());
        }
        return jobs;
    }

    /** What each input reported for batch {@code time}, by its name (inputs of the same name summed). */
    public Map<String, BatchReport> inputReport(Time time) {
        Map<String, BatchReport> reports = new LinkedHashMap<>();
        for (SourceOperator<?> input : inputs) {
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

    /** Batch {@code time} completed: the operators the outputs reach forget what no later batch needs. */
    public void clearOlderThanNeeded(Time time) {
        for (OutputOperation<?> out : outputs) {
            out.parent().clearOlderThanNeeded(time);
        }
    }

    /** Where the stateful operators' state partitions run (the autoscaler names the executors). */
    public StatePlacement statePlacement() {
        return context.statePlacement();
    }

    public JavaSparkContext sparkContext() {
        return context.sparkContext();
    }

    public Duration batchInterval() {
        return context.grid().step();
    }

    /** The operators, in creation order (the operator of node {@code i} at index {@code i}). */
    public List<Operator<?>> operators() {
        return operators;
    }

    public List<SourceOperator<?>> inputs() {
        return inputs;
    }

    public List<OutputOperation<?>> outputs() {
        return outputs;
    }
}
