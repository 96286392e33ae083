package io.sluice.dstream.internal;

import io.sluice.dstream.internal.state.StatePlacement;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.JobTags;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * What the running context gives every operator at construction, besides the operator's own description: the
 * SparkContext, the context's batch grid (zero time and batch interval), where state partitions run, the batches a
 * restart skips, and the call site under which Spark makes an operator's RDDs and jobs. {@link StreamGraph} makes
 * one before it builds its operators and hands the same one to each; it holds nothing of the graph, so an operator
 * never calls back into a graph still being built.
 */
public final class OperatorContext {
    private final JavaSparkContext sc;
    private final BatchGrid grid;
    private final Set<Time> skipped;
    private final StatePlacement statePlacement;

    /**
     * @param grid    the context's batch times: its zero time and batch interval
     * @param skipped batches a restarted driver skips (missed while it was down, and the user chose to skip them):
     *                every source gives an empty RDD at these times, so they add nothing to state or windows
     */
    public OperatorContext(JavaSparkContext sc, BatchGrid grid, Set<Time> skipped, StatePlacement statePlacement) {
        this.sc = sc;
        this.grid = grid;
        this.skipped = Set.copyOf(skipped);
        this.statePlacement = statePlacement;
    }

    public JavaSparkContext sparkContext() {
        return sc;
    }

    /** The context's batch grid; an operator's own is this grid with its slide as the step. */
    public BatchGrid grid() {
        return grid;
    }

    /** Whether batch {@code time} is one a restart skips: the sources read nothing for it. */
    public boolean isSkipped(Time time) {
        return !skipped.isEmpty() && skipped.contains(time);
    }

    /** Where the stateful operators' state partitions run: spread over the executors (none in local mode). */
    public StatePlacement statePlacement() {
        return statePlacement;
    }

    /**
     * Runs {@code body} with {@code callSite} as the call site of the RDDs and jobs it makes, in both of Spark's
     * forms: with the long form unset too, Spark would walk the thread's stack for every RDD made (most of the
     * time spent generating a batch).
     */
    <R> R withCallSite(String callSite, Supplier<R> body) {
        String previous = sc.getLocalProperty(JobTags.SHORT_CALL_SITE); // both forms are always set together
        JobTags.setCallSite(sc.sc(), callSite);
        try {
            return body.get();
        } finally {
            JobTags.setCallSite(sc.sc(), previous);
        }
    }
}
