package io.sluice.dstream.internal.window;

import io.sluice.dstream.internal.CallSite;
import io.sluice.dstream.internal.Durations;
import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.Operator;
import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;

/**
 * A sliding window: its RDD at t is the union of its parent's RDDs in (t - window, t], produced every
 * {@code slide}. Windows at the start hold only the batches that exist (the first output, at the first slide
 * boundary, is a partial window). When every RDD in the window has the same partitioner (as after a
 * reduceByKey), the union keeps it, so a following by-key operation needs no shuffle.
 *
 * <p>The parent's RDDs are each read by several windows, so the parent is persisted (serialized, as Spark
 * Streaming does) unless the user chose a level, and remembered for this window's length longer.
 */
public final class WindowOperator<T> extends Operator<T> {
    private final Operator<T> parent;
    private final Duration window;

    private WindowOperator(Config config, Duration window) {
        super(config);
        @SuppressWarnings("unchecked")
        Operator<T> p = (Operator<T>) config.parents().get(0);
        this.parent = p;
        this.window = window;
    }

    /** Describes a window over {@code parent}; its parent is persisted unless the user chose a level. */
    public static <T> Node<T> node(GraphDescription graph, Node<T> parent, Duration window, Duration slide) {
        String callSite = CallSite.of("window");
        Duration length = Durations.requirePositiveMillis(window, callSite + ": the window duration");
        Duration every = Durations.requirePositiveMillis(slide, callSite + ": the slide duration");
        Node<T> node = graph.add("window", callSite, List.of(parent), every, length, List.of(), Node.Settings.DEFAULT,
                config -> new WindowOperator<T>(config, length));
        if (graph.settings(parent).storageLevel().equals(StorageLevel.NONE())) {
            graph.persist(parent, StorageLevel.MEMORY_ONLY_SER());
        }
        return node;
    }

    public Duration window() {
        return window;
    }

    @Override
    protected Optional<JavaRDD<T>> compute(Time time) {
        List<JavaRDD<T>> rdds = parent.slice(time.minus(window), time);
        if (rdds.isEmpty()) {
            return Optional.of(context().sparkContext().emptyRDD());
        }
        @SuppressWarnings("unchecked")
        JavaRDD<T>[] all = rdds.toArray(JavaRDD[]::new);
        return Optional.of(context().sparkContext().union(all));
    }
}
