package io.sluice.dstream.testing;

import io.sluice.testkit.Collected;
import io.sluice.testkit.SharedSpark;
import io.sluice.testkit.StreamTester;
import io.sluice.rdd.Time;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.streaming.api.java.JavaDStream;
import org.apache.spark.streaming.api.java.JavaDStreamLike;
import org.apache.spark.streaming.api.java.JavaStreamingContext;
import org.apache.spark.streaming.scheduler.StreamingListener;
import org.apache.spark.streaming.scheduler.StreamingListenerBatchCompleted;
import org.apache.spark.util.ManualClock;

/**
 * The reference side of a differential test: the same pipeline on Spark Streaming 4.2.0, on the shared
 * SparkContext, driven by Spark Streaming's own manual clock ({@code spark.streaming.clock} is set by {@link
 * SharedSpark}) and awaited with a listener, never with sleeps. Batch times match {@link StreamTester}'s: both
 * clocks start at 0, so batch i is at i intervals.
 */
public final class SparkStreamingRun implements AutoCloseable {
    private static final long BATCH_TIMEOUT_SECONDS = 120;

    private final JavaStreamingContext context;
    private final BlockingQueue<Long> completed = new LinkedBlockingQueue<>();
    private final int partitions;
    private long next;

    public SparkStreamingRun(int partitions) {
        this.partitions = partitions;
        context = new JavaStreamingContext(SharedSpark.context(),
                org.apache.spark.streaming.Durations.milliseconds(StreamTester.INTERVAL.toMillis()));
        context.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(StreamingListenerBatchCompleted event) {
                completed.add(event.batchInfo().batchTime().milliseconds());
            }
        });
    }

    public JavaStreamingContext context() {
        return context;
    }

    public <T> JavaDStream<T> input(List<List<T>> batches) {
        Queue<JavaRDD<T>> queue = new ArrayDeque<>();
        for (List<T> batch : batches) {
            queue.add(context.sparkContext().parallelize(batch, partitions));
        }
        return context.queueStream(queue, true);
    }

    /** Registers an output that collects every batch of {@code stream} (a JavaDStream or JavaPairDStream). */
    public <T> Collected<T> collect(JavaDStreamLike<T, ?, ?> stream) {
        Collected<T> out = new Collected<>();
        JavaDStream<T> plain = JavaDStream.fromDStream(stream.dstream(), stream.classTag());
        plain.foreachRDD((rdd, time) -> out.add(new Time(time.milliseconds()), rdd.collect()));
        return out;
    }

    public void runBatches(int n) {
        if (next == 0) {
            context.start();
            next = StreamTester.INTERVAL.toMillis();
        }
        ManualClock clock = (ManualClock) context.ssc().scheduler().clock();
        for (int i = 0; i < n; i++) {
            clock.setTime(next);
            await(next);
            next += StreamTester.INTERVAL.toMillis();
        }
    }

    private void await(long time) {
        try {
            while (true) {
                Long done = completed.poll(BATCH_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (done == null) {
                    throw new AssertionError("Spark Streaming batch " + time + " did not complete");
                }
                if (done == time) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() {
        context.stop(false);
    }
}
