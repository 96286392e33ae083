package io.sluice.dstream.internal;

import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Exchange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The runtime of one stream: a function from its parents' RDDs at a batch time to its own RDD at that time.
 * {@link StreamGraph} builds it at start from the stream's {@link Node}, with its whole configuration final from
 * construction: the {@link OperatorContext} (SparkContext, batch grid, state placement, skipped batches), its
 * settings, remember duration, parents, and whatever a restart restores. Subclasses declare only {@link #compute};
 * this class computes each time at most once, under the stream's call site, names any failure with the operator and
 * the batch, persists and cuts lineage as configured, and forgets RDDs once nothing can ask for them again. An
 * operator whose batch moves records to partitions through an {@link Exchange} says so ({@link #exchanged}); this
 * class releases and discards the exchange with the batch.
 */
public abstract class Operator<T> {
    /**
     * What an operator is built with: the running context, its description and settings, how long it remembers
     * its RDDs, its runtime parents, and the start plan (what a restart restores).
     */
    public record Config(OperatorContext context, Node<?> node, Node.Settings settings, Duration rememberDuration,
            List<Operator<?>> parents, StartPlan plan) {
    }

    private final OperatorContext context;
    private final int id;
    private final String kind;
    private final String callSite;
    private final List<Operator<?>> parents;
    private final RddSeries<T> generated;
    private final ExchangeSeries exchanges = new ExchangeSeries();
    private final String name;
    private final StorageLevel storageLevel;
    private final Duration checkpointInterval;
    private final Duration rememberDuration;
    private final BatchGrid grid; // the context's zero time, this operator's slide

    protected Operator(Config config) {
        Node<?> node = config.node();
        this.context = config.context();
        this.id = node.id();
        this.kind = node.kind();
        this.callSite = node.callSite();
        this.parents = List.copyOf(config.parents());
        this.name = config.settings().name();
        this.storageLevel = config.settings().storageLevel();
        this.generated = config.settings().internal() ? RddSeries.internal() : new RddSeries<>();
        this.checkpointInterval = config.settings().checkpointInterval();
        this.rememberDuration = config.rememberDuration();
        this.grid = context.grid().withStep(node.slide());
    }

    /**
     * The RDD of batch {@code time}, or empty when this operator has none at that time. Whatever it throws (Spark's
     * checked exceptions thrown from Scala, a user function's) reaches the scheduler once, naming this operator and
     * the batch.
     */
    protected abstract Optional<JavaRDD<T>> compute(Time time) throws Exception;

    /** How often this operator produces an RDD. */
    public final Duration slide() {
        return grid.step();
    }

    /** This operator's batch times: the context's zero time, stepped by its slide. */
    public final BatchGrid grid() {
        return grid;
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
        Optional<JavaRDD<T>> computed = context.withCallSite(callSite, () -> computeNamingFailures(time));
        return computed.map(rdd -> {
            rdd.setName(describe() + " @ " + time.milliseconds());
            return generated.add(time, rdd, storageLevel, isCheckpointTime(time) && cutsLineageOfOutput());
        });
    }

    /** Any failure (Spark's are often checked exceptions thrown from Scala) names the operator and batch, once. */
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
        List<Time> times = grid.between(fromExclusive, toInclusive);
        List<JavaRDD<T>> result = new ArrayList<>(times.size());
        for (Time t : times) {
            getOrCompute(t).ifPresent(result::add);
        }
        return result;
    }

    /** Forgets (and unpersists) the RDDs no batch after {@code time} can need (see {@link RddSeries}). */
    final void clearOlderThanNeeded(Time time) {
        Time oldest = time.minus(rememberDuration);
        forget(time, oldest);
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
        forget(end, end);
    }

    /** The batch at {@code done} completed: releases what it held and forgets batches up to {@code oldest}. */
    private void forget(Time done, Time oldest) {
        generated.forgetThrough(oldest);
        exchanges.batchDone(done);
        batchDone(done);
        exchanges.forgetThrough(oldest);
        forgetOlderThan(oldest);
    }

    /**
     * The records {@code exchange} moved, for the RDD of batch {@code time} to read: the exchange is released once
     * the batch completed (what reads it is computed and persisted; a recomputation exchanges the records again)
     * and discarded once this operator forgets the batch.
     */
    protected final <K, V> RDD<Tuple2<K, V>> exchanged(Time time, Exchange<K, V> exchange) {
        exchanges.add(time, exchange);
        return exchange.rdd();
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

    public final OperatorContext context() {
        return context;
    }

    public final int id() {
        return id;
    }

    public final List<Operator<?>> parents() {
        return parents;
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
        return grid.zero();
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
