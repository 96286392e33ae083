package io.sluice.dstream.internal;

import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;

/**
 * A node of the stream graph: a function from its parents' RDDs at a batch time to its own RDD at that time.
 * Subclasses declare only their parents, their slide and {@link #compute}; this class computes each time at
 * most once, persists and cuts lineage as configured, and forgets RDDs once nothing can ask for them again.
 *
 * <p>Settings ({@link #name}, {@link #persist}, {@link #checkpoint}) may change only before the context
 * starts; at start the graph fixes the zero time and how long each operator remembers its RDDs.
 */
public abstract class Operator<T> {
    private final StreamGraph graph;
    private final int id;
    private final String kind;
    private final String callSite;
    private final List<Operator<?>> parents;
    private final List<Object> userFunctions;
    private final RddSeries<T> generated = new RddSeries<>();

    private volatile String name;
    private volatile StorageLevel storageLevel = StorageLevel.NONE();
    private volatile Duration checkpointInterval;
    private volatile Duration rememberDuration;
    private volatile Time zeroTime;
    private volatile BatchGrid grid; // zero time and slide

    protected Operator(StreamGraph graph, String kind, List<Operator<?>> parents, List<?> userFunctions) {
        this.graph = graph;
        this.kind = kind;
        this.callSite = CallSite.of(kind);
        this.parents = List.copyOf(parents);
        this.userFunctions = List.copyOf(userFunctions);
        for (Operator<?> parent : parents) {
            if (parent.graph != graph) {
                throw new IllegalArgumentException(callSite + ": cannot combine streams of different contexts");
            }
        }
        this.id = graph.register(this);
    }

    /** The RDD of batch {@code time}, or empty when this operator has none at that time. */
    protected abstract Optional<JavaRDD<T>> compute(Time time);

    /** How often this operator produces an RDD; by default its first parent's slide. */
    public Duration slide() {
        return parents.get(0).slide();
    }

    /** How long parents must keep their RDDs for this operator; windows extend it by their length. */
    protected Duration parentRememberDuration() {
        return rememberDuration;
    }

    /** Checks this operator's own settings at start; returns what is wrong, if anything. */
    protected List<String> validate(Duration batchInterval) {
        List<String> problems = new ArrayList<>();
        if (!BatchGrid.isMultiple(slide(), batchInterval)) {
            problems.add(describe() + ": its slide " + Durations.show(slide())
                    + " is not a multiple of the batch interval " + Durations.show(batchInterval)
                    + "; make every window length and slide a multiple of the batch interval");
        }
        Duration checkpoint = checkpointInterval;
        if (checkpoint != null && !BatchGrid.isMultiple(checkpoint, slide())) {
            problems.add(describe() + ": its checkpoint interval " + Durations.show(checkpoint)
                    + " is not a multiple of its slide " + Durations.show(slide())
                    + "; pass checkpoint(...) a multiple of " + Durations.show(slide()));
        }
        return problems;
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
        computed.ifPresent(rdd -> {
            rdd.setName(describe() + " @ " + time.milliseconds());
            generated.add(time, rdd, storageLevel, isCheckpointTime(time) && cutsLineageOfOutput());
        });
        return computed;
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
        BatchGrid g = grid;
        if (g == null) {
            throw new IllegalStateException(describe() + " asked for batch " + time + " before the context started");
        }
        return g.contains(time);
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
        Duration interval = checkpointInterval;
        return interval != null && grid.withStep(interval).isOnGrid(time);
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

    final void start(Time zero) {
        if (zeroTime != null) {
            return;
        }
        grid = new BatchGrid(zero, slide());
        zeroTime = zero;
        if (rememberDuration == null) {
            rememberDuration = slide();
        }
        Duration checkpoint = checkpointInterval;
        if (checkpoint != null && rememberDuration.compareTo(checkpoint.multipliedBy(2)) < 0) {
            rememberDuration = checkpoint.multipliedBy(2);
        }
        for (Operator<?> parent : parents) {
            parent.start(zero);
        }
    }

    /** Asks this operator (and, through it, its parents) to keep its RDDs for at least {@code duration}. */
    final void remember(Duration duration) {
        if (rememberDuration == null || duration.compareTo(rememberDuration) > 0) {
            rememberDuration = duration;
        }
        for (Operator<?> parent : parents) {
            parent.remember(parentRememberDuration());
        }
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

    /** Hook for operators that hold resources only while the batch at {@code time} runs (it has completed). */
    protected void batchDone(Time time) {
    }

    /** Hook for operators that keep per-time metadata of their own besides the RDDs. */
    protected void forgetOlderThan(Time oldestKept) {
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

    public final void name(String name) {
        graph.ensureNotStarted("name()");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(callSite + ": an operator name must not be blank");
        }
        graph.claimName(name, this);
        this.name = name;
    }

    public final void persist(StorageLevel level) {
        graph.ensureNotStarted("persist()");
        this.storageLevel = level;
    }

    public final StorageLevel storageLevel() {
        return storageLevel;
    }

    public final void checkpoint(Duration interval) {
        graph.ensureNotStarted("checkpoint()");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(callSite + ": checkpoint interval must be positive, was " + interval);
        }
        this.checkpointInterval = interval;
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
