package io.sluice.dstream.internal;

import io.sluice.dstream.source.BatchReport;
import io.sluice.rdd.internal.JobTags;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Serialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The operators of one streaming context, in creation order. Built by the user API before start; at start
 * it is validated as a whole, then frozen: from then on it only generates jobs and forgets old RDDs.
 */
public final class StreamGraph {
    private final JavaSparkContext sc;
    private final Duration batchInterval;
    private final List<Operator<?>> operators = new CopyOnWriteArrayList<>();
    private final List<InputOperator<?>> inputs = new CopyOnWriteArrayList<>();
    private final List<OutputOperation<?>> outputs = new CopyOnWriteArrayList<>();
    private final Map<String, Operator<?>> names = new HashMap<>();
    private final Set<Time> skipped = ConcurrentHashMap.newKeySet();
    private volatile boolean started;
    private volatile Duration userRemember;

    public StreamGraph(JavaSparkContext sc, Duration batchInterval) {
        this.sc = sc;
        this.batchInterval = Durations.requirePositiveMillis(batchInterval, "the batch interval");
    }

    synchronized int register(Operator<?> operator) {
        ensureNotStarted("adding " + operator.callSite());
        operators.add(operator);
        if (operator instanceof InputOperator<?> input) {
            inputs.add(input);
        }
        return operators.size() - 1;
    }

    synchronized int register(OutputOperation<?> output) {
        ensureNotStarted("adding " + output.callSite());
        outputs.add(output);
        return outputs.size() - 1;
    }

    synchronized void claimName(String name, Operator<?> operator) {
        Operator<?> other = names.putIfAbsent(name, operator);
        if (other != null && other != operator) {
            throw new IllegalArgumentException(operator.callSite() + ": the name '" + name
                    + "' is already used by " + other.callSite() + "; operator names must be unique");
        }
    }

    public void ensureNotStarted(String what) {
        if (started) {
            throw new IllegalStateException(what + " is not allowed after the StreamingContext has started: "
                    + "create every stream and output operation before start()");
        }
    }

    public synchronized void remember(Duration duration) {
        ensureNotStarted("remember()");
        userRemember = Durations.requirePositiveMillis(duration, "remember duration");
    }

    /** Checks the whole graph; returns every problem found, each saying what to change. */
    public List<String> validate() {
        List<String> problems = new ArrayList<>();
        if (outputs.isEmpty()) {
            problems.add("no output operation is registered, so nothing would ever run: add one "
                    + "(print(), foreachRDD(...), saveAsTextFiles(...)) before start()");
        }
        for (Operator<?> op : operators) {
            problems.addAll(op.validate(batchInterval));
            for (Object fn : op.userFunctions()) {
                Serialization.problemWith(fn).ifPresent(p -> problems.add(op.describe()
                        + ": its function " + fn.getClass().getName() + " cannot be sent to executors: " + p
                        + " (make captured objects Serializable, or create them inside the function)"));
            }
        }
        // Output functions (foreachRDD) run on the driver and are never serialized: no checkpoint holds them,
        // so unlike Spark Streaming they may capture driver-only objects such as connection pools.
        return problems;
    }

    /** Freezes the graph and fixes its zero time: the first batch is at {@code zero + batchInterval}. */
    public synchronized void start(Time zero) {
        started = true;
        for (OutputOperation<?> out : outputs) {
            out.parent().start(zero);
        }
        for (Operator<?> op : operators) {
            op.start(zero); // operators no output depends on still get a zero time for slice()
        }
        for (OutputOperation<?> out : outputs) {
            Duration r = userRemember == null ? out.parent().slide()
                    : Durations.max(userRemember, out.parent().slide());
            out.parent().remember(r);
        }
    }

    /**
     * Batches a restarted driver skips (missed while it was down, and the user chose to skip them): every
     * source gives an empty RDD at these times, so they contribute nothing to state or windows.
     */
    public void skipBatches(Collection<Time> times) {
        ensureNotStarted("skipping batches");
        skipped.addAll(times);
    }

    public boolean isSkipped(Time time) {
        return !skipped.isEmpty() && skipped.contains(time);
    }

    public boolean isStarted() {
        return started;
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

    public void clearOlderThanNeeded(Time time) {
        for (OutputOperation<?> out : outputs) {
            out.parent().clearOlderThanNeeded(time);
        }
    }

    <R> R withCallSite(String callSite, Supplier<R> body) {
        String previous = sc.getLocalProperty("callSite.short");
        sc.setCallSite(callSite);
        try {
            return body.get();
        } finally {
            if (previous == null) {
                sc.clearCallSite();
            } else {
                sc.setCallSite(previous);
            }
        }
    }

    public JavaSparkContext sparkContext() {
        return sc;
    }

    public Duration batchInterval() {
        return batchInterval;
    }

    public List<Operator<?>> operators() {
        return List.copyOf(operators);
    }

    public List<InputOperator<?>> inputs() {
        return List.copyOf(inputs);
    }

    public List<OutputOperation<?>> outputs() {
        return List.copyOf(outputs);
    }

    public Optional<Operator<?>> byStableId(String stableId) {
        return operators.stream().filter(o -> o.stableId().equals(stableId)).findFirst();
    }
}
