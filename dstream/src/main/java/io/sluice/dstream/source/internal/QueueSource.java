package io.sluice.dstream.source.internal;

import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.SourceContext;
import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Each batch takes the next RDD of a queue (or all queued RDDs, unioned), as Spark Streaming's queueStream
 * does; an empty queue gives the default RDD, or an empty one with one partition. Not replayable: the queue
 * lives in the driver's memory, so after a driver restart the batches pending at the crash are empty and their
 * records are lost.
 */
public final class QueueSource<T> implements InputSource<T> {
    private final Queue<JavaRDD<T>> queue;
    private final boolean oneAtATime;
    private final JavaRDD<T> defaultRdd;
    private volatile JavaSparkContext sc;

    public QueueSource(Queue<JavaRDD<T>> queue, boolean oneAtATime, JavaRDD<T> defaultRdd) {
        this.queue = queue;
        this.oneAtATime = oneAtATime;
        this.defaultRdd = defaultRdd;
    }

    @Override
    public void start(SourceContext context) {
        sc = context.sparkContext();
    }

    @Override
    public Optional<JavaRDD<T>> compute(Time time) {
        List<JavaRDD<T>> taken = new ArrayList<>();
        synchronized (queue) {
            if (oneAtATime) {
                JavaRDD<T> next = queue.poll();
                if (next != null) {
                    taken.add(next);
                }
            } else {
                taken.addAll(queue);
                queue.clear();
            }
        }
        if (taken.size() == 1) {
            return Optional.of(taken.get(0));
        }
        if (!taken.isEmpty()) {
            @SuppressWarnings("unchecked") // an array of the queue's own element type
            JavaRDD<T>[] rdds = taken.toArray(JavaRDD[]::new);
            return Optional.of(sc.union(rdds));
        }
        // As Spark Streaming: an empty batch is one empty partition (not zero), so mapPartitions and glom see it.
        return Optional.of(defaultRdd != null ? defaultRdd : sc.parallelize(List.<T>of(), 1));
    }
}
