package io.sluice.dstream.internal;

import java.time.Duration;
import java.util.List;
import org.apache.spark.storage.StorageLevel;

/**
 * The description of one stream of the graph, recorded by the API before start: its position, kind, call
 * site, parents, slide and user functions, and how to build its runtime {@link Operator} once the context
 * starts. The user's settings ({@link Settings}) are kept beside it by the {@link GraphDescription}.
 *
 * @param window the window length for windowed streams (their parents remember that much longer), else null
 */
public record Node<T>(int id, String kind, String callSite, List<Node<?>> parents, Duration slide, Duration window,
        List<Object> userFunctions, Factory<T> factory) {

    public Node {
        parents = List.copyOf(parents);
        userFunctions = List.copyOf(userFunctions);
    }

    /** A node is itself: equal only to itself (its parents are not compared or hashed, however deep the graph). */
    @Override
    public boolean equals(Object other) {
        return this == other;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public String toString() {
        return "#" + id + " " + callSite;
    }

    /** Builds the stream's runtime operator at start; the parents in {@code config} are built already. */
    @FunctionalInterface
    public interface Factory<T> {
        Operator<T> build(Operator.Config config);
    }

    /**
     * What the user may set on a stream before start: its name, storage level and checkpoint interval; and
     * {@code internal}: the node's RDDs are Sluice's own and never reach user code, so in local mode they are
     * cached out of Spark's bookkeeping ({@link RddSeries#internal()}).
     */
    public record Settings(String name, StorageLevel storageLevel, Duration checkpointInterval, boolean internal) {
        public static final Settings DEFAULT = new Settings(null, StorageLevel.NONE(), null, false);

        public Settings withName(String n) {
            return new Settings(n, storageLevel, checkpointInterval, internal);
        }

        public Settings withStorageLevel(StorageLevel level) {
            return new Settings(name, level, checkpointInterval, internal);
        }

        public Settings withCheckpointInterval(Duration interval) {
            return new Settings(name, storageLevel, interval, internal);
        }

        public Settings asInternal() {
            return new Settings(name, storageLevel, checkpointInterval, true);
        }
    }
}
