package io.sluice.dstream;

import io.sluice.dstream.internal.Node;
import io.sluice.rdd.internal.Transforms;
import io.sluice.dstream.internal.window.WindowOperator;
import java.time.Duration;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.storage.StorageLevel;

/**
 * A discretized stream: one RDD per batch time. Mirrors Spark Streaming's {@code JavaDStream}: the same
 * operations with the same function types, so lambdas written for Spark Streaming compile unchanged.
 * Transformations return new streams; output operations ({@link #foreachRDD}, {@link #print}, {@link
 * #saveAsTextFiles}) make the context run jobs. All of them must be declared before the context starts.
 * The operations shared with {@link PairDStream} are in {@link DStreamLike}.
 */
public class DStream<T> extends DStreamLike<T, JavaRDD<T>> {
    DStream(StreamingContext context, Node<T> node) {
        super(context, node);
    }

    @Override
    final JavaRDD<T> view(JavaRDD<T> rdd) {
        return rdd;
    }

    public DStream<T> filter(Function<T, Boolean> f) {
        return derive("filter", f, (rdd, fns) -> Transforms.filter(rdd, fns.function(f)));
    }

    public DStream<T> repartition(int numPartitions) {
        return derive("repartition", null, (rdd, fns) -> rdd.repartition(numPartitions));
    }

    public DStream<T> union(DStream<T> other) {
        return context.union(this, other);
    }

    // ---- persistence and lineage ------------------------------------------------------------------------

    /** Keeps each batch's RDD in memory (serialized) while the stream remembers it. */
    public DStream<T> cache() {
        return persist(StorageLevel.MEMORY_ONLY_SER());
    }

    public DStream<T> persist() {
        return cache();
    }

    public DStream<T> persist(StorageLevel level) {
        description().persist(node(), level);
        return this;
    }

    /** Cuts this stream's lineage every {@code interval} (reliably with a checkpoint directory, else locally). */
    public DStream<T> checkpoint(Duration interval) {
        description().checkpoint(node(), interval);
        return this;
    }

    /** Names this stream: checkpoints attach its state and progress to the name, which survives code changes. */
    public DStream<T> name(String name) {
        description().name(node(), name);
        return this;
    }

    // ---- windows (see internal/window) --------------------------------------------------------------------

    /** Each RDD holds every element of the batches in the last {@code window}, one RDD per batch. */
    public DStream<T> window(Duration window) {
        return window(window, slideDuration());
    }

    /**
     * Each RDD holds every element of the batches in (t - window, t], one RDD every {@code slide}. Both must be
     * multiples of this stream's slide (checked at start). Windows at the start hold the batches so far.
     */
    public DStream<T> window(Duration window, Duration slide) {
        return new DStream<>(context, WindowOperator.node(description(), node(), window, slide));
    }
}
