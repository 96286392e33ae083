package io.sluice.dstream.internal;

import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;

/**
 * The runtime of one stream: a function from its parents' RDDs at a batch time to its own RDD at that time.
 * Built by the context at start from the stream's {@link Node}, with its whole configuration final from
 * construction (zero time, remember duration, settings, and whatever a restart restores). Subclasses declare
 * only {@link #compute}; this class computes each time at most once, persists and cuts lineage as configured,
 * and forgets RDDs once nothing can ask for them again.
 */
public abstract class Operator<T> {
    /**
     * What an operator is built with: its runtime graph, its description and settings, the zero time, how
     * long it remembers its RDDs, its runtime parents, and the start plan (what a restart restores).
     */
    public record Config(StreamGraph graph, Node<?> node, Node.Settings settings, Time zeroTime,
            Duration rememberDuration, List<Operator<?>> parents, StartPlan plan) {
    }

    private final StreamGraph graph;
    private final int id;
    private final String kind;
    private final String callSite;
    private final List<Operator<?>> parents;
    private final List<Object> userFunctions;
    private final RddSeries<T> generated;
    private final String name;
    private final StorageLevel storageLevel;
    private final Duration checkpointInterval;
    private final Duration slide;
    private final Duration rememberDuration;
    private final Time zeroTime;
    private final BatchGrid grid; // zero time and slide

    protected Operator(Config config) {
        Node<?> node = config.node();
        this.graph = config.graph();
        this.id = node.id();
        this.kind = node.kind();
        this.callSite = node.callSite();
        this.parents = List.copyOf(config.parents());
        this.userFunctions = node.userFunctions();
        this.name = config.settings().name();
        this.storageLevel = config.settings().storageLevel();
        this.generated = config.settings().internal() ? RddSeries.internal() : new RddSeries<>();
        this.checkpointInterval = config.settings().checkpointInterval();
        this.slide = node.slide();
        this.rememberDuration = config.rememberDuration();
        this.zeroTime = config.zeroTime();
        this.grid = new BatchGrid(zeroTime, slide);
    }

    /** The RDD of batch {@code time}, or empty when this operator has none at that time. */
    protected abstract Optional<JavaRDD<T>> compute(Time time);

    /** How often this operator produces an RDD. */
    public final Duration slide() {
        return slide;
    }

    /** Synchronized so that a user thread's slice() and the event loop never compute the same time twice. */
    public final synchronized Optional<JavaRDD<T>> getOrCompute(Time time) {
        if (!isValidTime(time)) {
            return Optional.empty();
        }
        Optional<JavaRDD<T>> existing = generated.get(time);
        if (existing.isPresent()) {
            return existing;
        }
        Optional<JavaRDD<T>> computed = graph.withCallSite(callSite, () -> graph.isSkipped(time)
                && this instanceof InputOperator ? Optional.of(graph.sparkContext().<T>emptyRDD())
                : computeNamingFailures(time));
        return computed.map(rdd -> {
            rdd.setName(describe() + " @ " + time.milliseconds());
            return generated.add(time, rdd, storageLevel, isCheckpointTime(time) && cutsLineageOfOutput());
        });
    }

    /** Any failure (Spark's are often checked exceptions thrown from Scala) names this operator and the batch. */
    private Optional<JavaRDD<T>> computeNamingFailures(Time time) {
        try {
            return compute(time);
        } catch (OperatorException e) {
            throw e;
        } catch (Exception e) {
            throw new OperatorException(this, time, e);
        }
    }

    /** Whether {@code time} is one of this operator's batch times (on its slide's grid). */
    protected final boolean isValidTime(Time time) {
        return grid.contains(time);
    }

    /**
     * Whether {@link #getOrCompute} cuts this operator's own RDDs at its checkpoint interval. Stateful operators
     * cut their state RDDs instead (their output is derived from the state and need not be written too).
     */
    protected boolean cutsLineageOfOutput() {
        return true;
    }

    /** Whether {@code time} is one of this operator's checkpoint times. */
    protected final boolean isCheckpointTime(Time time) {
        return checkpointInterval != null && grid.withStep(checkpointInterval).isOnGrid(time);
    }

    /**
     * The RDDs generated for times in (from, to], oldest first, computing missing ones oldest first (as Spark
     * Streaming does: a queue source polled here hands out its RDDs in time order).
     */
    public final List<JavaRDD<T>> slice(Time fromExclusive, Time toInclusive) {
        List<Time> times = new ArrayList<>();
        for (Time t = toInclusive; t.isAfter(fromExclusive); t = t.minus(slide())) {
            times.add(0, t);
        }
        List<JavaRDD<T>> result = new ArrayList<>(times.size());
        for (Time t : times) {
            getOrCompute(t).ifPresent(result::add);
        }
        return result;
    }

    /** Forgets (and unpersists) the RDDs no batch after {@code time} can need (see {@link RddSeries}). */
    final void clearOlderThanNeeded(Time time) {
        Time oldest = time.minus(rememberDuration);
        generated.forgetThrough(oldest);
        batchDone(time);
        forgetOlderThan(oldest);
        for (Operator<?> parent : parents) {
            parent.clearOlderThanNeeded(time);
        }
    }

    /**
     * Forgets (and unpersists) every RDD this operator keeps: the context stopped. State held outside Spark's
     * blocks (an executor's RocksDB files) is released once its versions are gone.
     */
    final void release() {
        Time end = Time.ofMillis(Long.MAX_VALUE);
        generated.forgetThrough(end);
        batchDone(end);
        forgetOlderThan(end);
    }

    /** Hook for operators that hold resources only while the batch at {@code time} runs (it has completed). */
    protected void batchDone(Time time) {
    }

    /** Hook for operators that keep per-time metadata of their own besides the RDDs. */
    protected void forgetOlderThan(Time oldestKept) {
    }

    /**
     * A stateful operator's figures of batch {@code time}, asked once, on the event loop, when the batch has
     * completed (empty for every other operator, and when the batch did not compute the state).
     */
    public Optional<StateOperatorInfo> stateReport(Time time) {
        return Optional.empty();
    }

    public final StreamGraph graph() {
        return graph;
    }

    public final int id() {
        return id;
    }

    public final List<Operator<?>> parents() {
        return parents;
    }

    public final List<Object> userFunctions() {
        return userFunctions;
    }

    public final String kind() {
        return kind;
    }

    public final String callSite() {
        return callSite;
    }

    /** The user's name for this operator if it has one, else its call site. */
    public final String describe() {
        String n = name;
        return n != null ? "'" + n + "' (" + callSite + ")" : callSite;
    }

    /** The id checkpoints attach this operator's progress and state to. */
    public final String stableId() {
        String n = name;
        return n != null ? n : "#" + id + "-" + kind;
    }

    public final String name() {
        return name;
    }

    public final StorageLevel storageLevel() {
        return storageLevel;
    }

    public final Duration checkpointInterval() {
        return checkpointInterval;
    }

    public final Duration rememberDuration() {
        return rememberDuration;
    }

    public final Time zeroTime() {
        return zeroTime;
    }

    /** The RDDs currently remembered, for tests and diagnostics. */
    public final int rememberedCount() {
        return generated.size();
    }

    @Override
    public String toString() {
        return describe();
    }
}
