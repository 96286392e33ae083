package io.sluice.dstream.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.DStream;
import io.sluice.dstream.DStreamLike;
import io.sluice.dstream.ManualClock;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.StreamingContextState;
import io.sluice.rdd.Time;
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
 * Runs a streaming pipeline batch by batch in a test: scripted input per batch in, collected output per batch
 * out. The context runs on the shared SparkContext with a {@link ManualClock}; {@link #runBatches} advances the
 * clock one interval at a time and waits for each batch to complete, so no test ever sleeps.
 *
 * <p>For table tests, {@link #expectBatches} / {@link #expectUnordered} (one input) and {@link
 * #expectBatches2} / {@link #expectUnordered2} (two inputs: join, cogroup, transformWith, union) run a whole
 * table: input per batch, expected output per batch, in one call.
 */
public final class StreamTester implements AutoCloseable {
    public static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final long BATCH_TIMEOUT_SECONDS = 120;

    private final ManualClock clock = new ManualClock();
    private final StreamingContext context;
    private final BlockingQueue<BatchInfo> completed = new LinkedBlockingQueue<>();
    private final List<BatchInfo> history = new ArrayList<>();
    private int partitions = 2;
    private Time next;

    public StreamTester() {
        this(INTERVAL);
    }

    public StreamTester(Duration batchInterval) {
        context = StreamingContext.create(SharedSpark.context(), batchInterval, clock);
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
        if (context.getState() == StreamingContextState.INITIALIZED) {
            context.start();
            next = new Time(clock.millis()).floor(context.batchInterval()).plus(context.batchInterval());
        }
        List<BatchInfo> infos = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            clock.setTime(next.milliseconds());
            infos.add(awaitBatch(next));
            next = next.plus(context.batchInterval());
        }
        return infos;
    }

    /** Runs one batch and asserts that it failed; returns its output operations' failure reasons. */
    public List<String> runFailingBatch() {
        BatchInfo info = runBatches(1).get(0);
        List<String> reasons = failureReasons(info);
        assertTrue(info.failed() && !reasons.isEmpty(), "batch " + info.batchTime() + " should have failed");
        return reasons;
    }

    public static List<String> failureReasons(BatchInfo info) {
        return info.outputOperationInfos().values().stream().map(OutputOperationInfo::failureReason)
                .filter(Objects::nonNull).toList();
    }

    private BatchInfo awaitBatch(Time time) {
        try {
            while (true) {
                BatchInfo info = completed.poll(BATCH_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (info == null) {
                    throw new AssertionError("batch " + time + " did not complete within " + BATCH_TIMEOUT_SECONDS + " s");
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
