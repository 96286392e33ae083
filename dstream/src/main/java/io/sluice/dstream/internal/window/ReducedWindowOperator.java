package io.sluice.dstream.internal.window;

import io.sluice.dstream.internal.DerivedOperator;
import io.sluice.dstream.internal.Durations;
import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.Rdds;
import io.sluice.rdd.Aggregations;
import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;
import scala.reflect.ClassTag;

/**
 * reduceByKeyAndWindow with an inverse function: the window at t is the window at t - slide, minus the
 * batches that left it, plus the batches that entered it. Each batch is reduced by key once (and kept while
 * it is in the window); the previous window's result is reused, so a batch costs in proportion to the keys
 * in the window and the data entering and leaving it, not to the window's length.
 *
 * <p>Every RDD involved is partitioned by the same partitioner, so the update is one narrow zip of
 * partitions (see {@link WindowMerge}); only the entering batch is shuffled, by its own reduceByKey. Results
 * are kept in memory deserialized. Each window RDD depends on the previous one, so lineage grows by one per
 * slide: like Spark Streaming, this operator cuts it every {@link WindowChecks#defaultCheckpointInterval}
 * unless the user sets an interval with {@code checkpoint(interval)}, reliably when the context has a
 * checkpoint directory and with local checkpoints otherwise.
 */
public final class ReducedWindowOperator<K, V> extends Operator<Tuple2<K, V>> {
    private final Operator<Tuple2<K, V>> source;
    private final Operator<Tuple2<K, V>> perBatch;
    private final Duration window;
    private final Duration slide;
    private final Partitioner partitioner;
    private final WindowMerge<K, V> merge;

    public ReducedWindowOperator(Operator<Tuple2<K, V>> source, Function2<V, V, V> reduce,
            Function2<V, V, V> inverse, Function<Tuple2<K, V>, Boolean> filter, Duration window, Duration slide,
            Partitioner partitioner) {
        super(source.graph(), "reduceByKeyAndWindow", List.of(reducedPerBatch(source, reduce, partitioner)),
                filter == null ? List.of(reduce, inverse) : List.of(reduce, inverse, filter));
        this.source = source;
        this.perBatch = castParent(parents().get(0));
        this.window = Durations.requirePositiveMillis(window, callSite() + ": the window duration");
        this.slide = Durations.requirePositiveMillis(slide, callSite() + ": the slide duration");
        this.partitioner = partitioner;
        this.merge = new WindowMerge<>(reduce, inverse, filter);
        persist(StorageLevel.MEMORY_ONLY());
        checkpoint(WindowChecks.defaultCheckpointInterval(slide));
    }

    private static <K, V> Operator<Tuple2<K, V>> reducedPerBatch(Operator<Tuple2<K, V>> source,
            Function2<V, V, V> reduce, Partitioner partitioner) {
        DerivedOperator<Tuple2<K, V>> reduced = DerivedOperator.of("reduceByKey (batches of reduceByKeyAndWindow)",
                source, reduce, (rdd, time) -> Rdds.tuples(Aggregations.reduceByKey(Rdds.pairs(rdd), reduce, partitioner)));
        // Read again when the batch leaves the window: keep it, deserialized (no decoding on the hot path).
        reduced.persist(StorageLevel.MEMORY_ONLY());
        return reduced;
    }

    @SuppressWarnings("unchecked")
    private static <K, V> Operator<Tuple2<K, V>> castParent(Operator<?> parent) {
        return (Operator<Tuple2<K, V>>) parent;
    }

    @Override
    public Duration slide() {
        return slide;
    }

    public Duration window() {
        return window;
    }

    @Override
    protected Duration parentRememberDuration() {
        return rememberDuration().plus(window);
    }

    @Override
    protected List<String> validate(Duration batchInterval) {
        return WindowChecks.problems(this, source, window, slide, super.validate(batchInterval));
    }

    @Override
    protected Optional<JavaRDD<Tuple2<K, V>>> compute(Time time) {
        Time previous = time.minus(slide);
        Time windowStart = time.minus(window); // exclusive
        // The previous window is remembered in the normal course of batches. Where it is not (the first
        // window, after a driver restart, or a past time asked for by slice), this window is computed from
        // all of its batches rather than by recursing through every earlier window back to the start.
        Optional<JavaRDD<Tuple2<K, V>>> previousWindow = remembered(previous);
        List<JavaRDD<Tuple2<K, V>>> leaving;
        List<JavaRDD<Tuple2<K, V>>> entering;
        if (previousWindow.isPresent()) {
            // Batches in the previous window but not this one leave; those in this one but not the previous
            // enter. (Also right for a window shorter than its slide: then the windows do not overlap.)
            leaving = perBatch.slice(previous.minus(window), earlier(windowStart, previous));
            entering = perBatch.slice(later(windowStart, previous), time);
        } else {
            leaving = List.of();
            entering = perBatch.slice(windowStart, time);
        }

        int partitions = partitioner.numPartitions();
        RDD<Tuple2<K, V>> in = unionOrEmpty(entering, partitions);
        RDD<Tuple2<K, V>> out = unionOrEmpty(leaving, partitions);
        RDD<Tuple2<K, V>> before = previousWindow.isPresent() ? previousWindow.get().rdd() : empty(partitions);
        ClassTag<Tuple2<K, V>> tag = Rdds.anyTag();
        // The entering batches come first: their partitioner is the one the result keeps.
        RDD<Tuple2<K, V>> merged = in.zipPartitions(out, before, true, merge, tag, tag, tag);
        return Optional.of(new JavaRDD<>(merged, tag));
    }

    private RDD<Tuple2<K, V>> unionOrEmpty(List<JavaRDD<Tuple2<K, V>>> rdds, int partitions) {
        if (rdds.isEmpty()) {
            return empty(partitions);
        }
        if (rdds.size() == 1) {
            return rdds.get(0).rdd();
        }
        // All share the partitioner, so Spark's union is partition-wise: partition i of the union holds
        // partition i of each batch, in time order.
        @SuppressWarnings("unchecked")
        JavaRDD<Tuple2<K, V>>[] all = new ArrayList<>(rdds).toArray(JavaRDD[]::new);
        return graph().sparkContext().union(all).rdd();
    }

    private RDD<Tuple2<K, V>> empty(int partitions) {
        return graph().sparkContext().<Tuple2<K, V>>parallelize(List.of(), partitions).rdd();
    }

    private static Time earlier(Time a, Time b) {
        return a.isAfter(b) ? b : a;
    }

    private static Time later(Time a, Time b) {
        return a.isAfter(b) ? a : b;
    }
}
