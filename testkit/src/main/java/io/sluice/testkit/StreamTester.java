package io.sluice.testkit;

import io.sluice.dstream.DStream;
import io.sluice.dstream.DStreamLike;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.StreamingContextState;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import io.sluice.rdd.Deadline;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.OutputOperationInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Runs a streaming job batch by batch in a test, as Kafka Streams' TopologyTestDriver runs a topology: scripted
 * input per batch in, collected output per batch out. The context runs on a {@link ManualClock};
 * {@link #runBatches} advances the clock one interval at a time and waits, on a listener, for each batch to
 * complete, so no test ever sleeps. Build the job on {@link #context()} (or feed it {@link #input}), collect
 * what it outputs with {@link #collect}, run batches, assert. Close the tester (try-with-resources) to stop
 * its context; the SparkContext under it ({@link SharedSpark} unless you pass one) stays up for the next.
 *
 * <p>For table tests, {@link #expectBatches} / {@link #expectUnordered} (one input) and {@link
 * #expectBatches2} / {@link #expectUnordered2} (two inputs: join, cogroup, transformWith, union) run a whole
 * table: input per batch, expected output per batch, in one call. Failures are {@link AssertionError}s; the kit
 * depends on no test framework.
 */
public final class StreamTester implements AutoCloseable {
    public static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Duration BATCH_TIMEOUT = Duration.ofSeconds(120);

    private final ManualClock clock = new ManualClock();
    private final StreamingContext context;
    private final BlockingQueue<BatchInfo> completed = new LinkedBlockingQueue<>();
    private final List<BatchInfo> history = new ArrayList<>();
    private int partitions = 2;
    private BatchGrid grid;
    private Time next;

    /** A tester with 1 s batches on the {@link SharedSpark} context. */
    public StreamTester() {
        this(INTERVAL);
    }

    public StreamTester(Duration batchInterval) {
        this(SharedSpark.context(), batchInterval);
    }

    /** A tester on your own SparkContext, which it never stops. */
    public StreamTester(JavaSparkContext sc, Duration batchInterval) {
        context = StreamingContext.create(sc, batchInterval, clock);
        context.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                completed.add(event.batchInfo());
            }
        });
    }

    // ---- tables ------------------------------------------------------------------------------------------

    /** Runs {@code pipeline} over {@code input} and asserts each batch's output in order. */
    public static <I, O> void expectBatches(List<List<I>> input, Function<DStream<I>, ? extends DStreamLike<O, ?>> pipeline,
            List<List<O>> expected) {
        try (StreamTester t = new StreamTester()) {
            Collected<O> out = t.collect(pipeline.apply(t.input(input)));
            t.runBatches(expected.size());
            out.assertBatches(expected);
        }
    }

    /** As {@link #expectBatches}, each batch compared as a multiset (grouped values too). */
    public static <I, O> void expectUnordered(List<List<I>> input, Function<DStream<I>, ? extends DStreamLike<O, ?>> pipeline,
            List<? extends List<?>> expected) {
        try (StreamTester t = new StreamTester()) {
            Collected<O> out = t.collect(pipeline.apply(t.input(input)));
            t.runBatches(expected.size());
            out.assertUnordered(expected);
        }
    }

    /** Two inputs, batch i of each feeding batch i; asserts each batch's output in order. */
    public static <A, B, O> void expectBatches2(List<List<A>> first, List<List<B>> second,
            BiFunction<DStream<A>, DStream<B>, ? extends DStreamLike<O, ?>> pipeline, List<List<O>> expected) {
        try (StreamTester t = new StreamTester()) {
            Collected<O> out = t.collect(pipeline.apply(t.input(first), t.input(second)));
            t.runBatches(expected.size());
            out.assertBatches(expected);
        }
    }

    /** As {@link #expectBatches2}, each batch compared as a multiset (grouped values too). */
    public static <A, B, O> void expectUnordered2(List<List<A>> first, List<List<B>> second,
            BiFunction<DStream<A>, DStream<B>, ? extends DStreamLike<O, ?>> pipeline, List<? extends List<?>> expected) {
        try (StreamTester t = new StreamTester()) {
            Collected<O> out = t.collect(pipeline.apply(t.input(first), t.input(second)));
            t.runBatches(expected.size());
            out.assertUnordered(expected);
        }
    }

    // ---- building and running ----------------------------------------------------------------------------

    public StreamingContext context() {
        return context;
    }

    public JavaSparkContext sparkContext() {
        return context.sparkContext();
    }

    public ManualClock clock() {
        return clock;
    }

    /** Partitions of each scripted input batch (default 2). */
    public StreamTester partitions(int partitions) {
        this.partitions = partitions;
        return this;
    }

    /** A stream whose i-th batch holds {@code batches.get(i)}; batches past the list are empty. */
    public <T> DStream<T> input(List<List<T>> batches) {
        Queue<JavaRDD<T>> queue = new ArrayDeque<>();
        for (List<T> batch : batches) {
            queue.add(context.sparkContext().parallelize(batch, partitions));
        }
        return context.queueStream(queue, true);
    }

    /** Registers an output that collects every batch of {@code stream}. */
    public <T> Collected<T> collect(DStreamLike<T, ?> stream) {
        Collected<T> out = new Collected<>();
        stream.foreachRDD((rdd, time) -> out.add(time, rdd.collect()));
        return out;
    }

    /** Starts the context if needed, then runs {@code n} batches, returning when the last one completed. */
    public List<BatchInfo> runBatches(int n) {
        if (context.getState() == StreamingContextState.STOPPED) {
            throw new IllegalStateException("this tester is closed: its streaming context was stopped");
        }
        if (context.getState() == StreamingContextState.INITIALIZED) {
            context.start();
            grid = BatchGrid.startingAt(new Time(clock.millis()), context.batchInterval());
            next = grid.first();
        }
        List<BatchInfo> infos = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            clock.setTime(next.milliseconds());
            infos.add(awaitBatch(next));
            next = grid.next(next);
        }
        return infos;
    }

    /** Runs one batch: advances the clock one interval and returns when that batch completed. */
    public BatchInfo runBatch() {
        return runBatches(1).get(0);
    }

    /** Runs one batch and asserts that it failed; returns its output operations' failure reasons. */
    public List<String> runFailingBatch() {
        BatchInfo info = runBatch();
        List<String> reasons = failureReasons(info);
        if (!info.failed() || reasons.isEmpty()) {
            throw new AssertionError("batch " + info.batchTime() + " should have failed, but it completed");
        }
        return reasons;
    }

    public static List<String> failureReasons(BatchInfo info) {
        return info.outputOperationInfos().values().stream().map(OutputOperationInfo::failureReason)
                .filter(Objects::nonNull).toList();
    }

    private BatchInfo awaitBatch(Time time) {
        Deadline deadline = Deadline.after(BATCH_TIMEOUT);
        try {
            while (true) {
                BatchInfo info = completed.poll(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS);
                if (info == null) {
                    throw new AssertionError("batch " + time + " did not complete within " + BATCH_TIMEOUT.toSeconds()
                            + " s (does the job register an output operation? is an output blocked?)");
                }
                history.add(info);
                if (info.batchTime().equals(time)) {
                    return info;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for batch " + time, e);
        }
    }

    /** Every batch completed so far, in completion order. */
    public List<BatchInfo> completedBatches() {
        return List.copyOf(history);
    }

    /** The next batch time {@link #runBatches} will run. */
    public Time nextBatchTime() {
        return next;
    }

    @Override
    public void close() {
        context.stop(false, false);
    }
}
