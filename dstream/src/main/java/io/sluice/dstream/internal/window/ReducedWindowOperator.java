package io.sluice.dstream.internal.window;

import io.sluice.rdd.internal.ClassTags;
import io.sluice.dstream.internal.CallSite;
import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.Durations;
import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.RddSeries;
import io.sluice.dstream.internal.Rdds;
import io.sluice.rdd.internal.KeyedMap;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Transforms;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;
import scala.reflect.ClassTag;

/**
 * reduceByKeyAndWindow with an inverse function: the window at t is the window at t - slide, minus the
 * batches that left it, plus the batches that entered it. Each batch is reduced by key once (and kept while it
 * is in the window); the previous window is reused, so a batch costs in proportion to the keys in the window
 * and the data entering and leaving it, not to the window's length.
 *
 * <p>Batches and windows are kept as one hash map per partition ({@link KeyedMap}), all partitioned by the
 * same partitioner, so the update is one narrow zip of partitions ({@link WindowMerge}); only the entering
 * batch is moved ({@link BatchReduceOperator}). This operator's RDD is a view of the window's maps as records.
 * Each window depends on the previous one, so lineage grows by one per slide: like Spark Streaming, the window
 * maps are cut every {@link WindowChecks#defaultCheckpointInterval} unless {@code checkpoint(interval)} says
 * otherwise, reliably when the context has a checkpoint directory and with local checkpoints otherwise.
 */
public final class ReducedWindowOperator<K, V> extends Operator<Tuple2<K, V>> {
    private final Operator<KeyedMap<K, V>> perBatch;
    private final Duration window;
    private final Duration slide;
    private final Partitioner partitioner;
    private final WindowMerge<K, V> merge;
    private final RddSeries<KeyedMap<K, V>> windows = RddSeries.internal();

    private ReducedWindowOperator(Config config, Duration window, Partitioner partitioner, WindowMerge<K, V> merge) {
        super(config);
        @SuppressWarnings("unchecked")
        Operator<KeyedMap<K, V>> parent = (Operator<KeyedMap<K, V>>) config.parents().get(0);
        this.perBatch = parent;
        this.window = window;
        this.slide = slide();
        this.partitioner = partitioner;
        this.merge = merge;
    }

    /**
     * Describes the window over {@code source}: a stream of each batch reduced by key (kept while it is in the
     * window), and the window itself, cut every {@link WindowChecks#defaultCheckpointInterval} by default.
     */
    public static <K, V> Node<Tuple2<K, V>> node(GraphDescription graph, Node<Tuple2<K, V>> source,
            Function2<V, V, V> reduce, Function2<V, V, V> inverse, Function<Tuple2<K, V>, Boolean> filter,
            Duration window, Duration slide, Partitioner partitioner) {
        Node<KeyedMap<K, V>> perBatch = BatchReduceOperator.node(graph, source, reduce, partitioner);
        String callSite = CallSite.of("reduceByKeyAndWindow");
        Duration length = Durations.requirePositiveMillis(window, callSite + ": the window duration");
        Duration every = Durations.requirePositiveMillis(slide, callSite + ": the slide duration");
        WindowMerge<K, V> merge = new WindowMerge<>(reduce, inverse, filter);
        return graph.add("reduceByKeyAndWindow", callSite, List.of(perBatch), every, length,
                filter == null ? List.of(reduce, inverse) : List.of(reduce, inverse, filter),
                Node.Settings.DEFAULT.withCheckpointInterval(WindowChecks.defaultCheckpointInterval(every)),
                config -> new ReducedWindowOperator<>(config, length, partitioner, merge));
    }

    public Duration window() {
        return window;
    }

    @Override
    protected boolean cutsLineageOfOutput() {
        return false; // the window maps are cut instead; the records are a view of them
    }

    @Override
    protected Optional<JavaRDD<Tuple2<K, V>>> compute(Time time) {
        JavaRDD<KeyedMap<K, V>> maps = windowMaps(time);
        FlatMapFunction<Iterator<KeyedMap<K, V>>, Tuple2<K, V>> records = KeyedMaps.records();
        return Optional.of(Rdds.tuples(Transforms.mapPartitionsToPair(maps, records::call, true))); // tagged Tuple2
    }

    private JavaRDD<KeyedMap<K, V>> windowMaps(Time time) {
        Time previous = time.minus(slide);
        Time windowStart = time.minus(window); // exclusive
        // The previous window is remembered in the normal course of batches. Where it is not (the first
        // window, after a driver restart, or a past time asked for by slice), this window is computed from
        // all of its batches rather than by recursing through every earlier window back to the start.
        JavaRDD<KeyedMap<K, V>> previousWindow = windows.get(previous).orElse(null);
        List<JavaRDD<KeyedMap<K, V>>> leaving;
        List<JavaRDD<KeyedMap<K, V>>> entering;
        if (previousWindow != null) {
            // Batches in the previous window but not this one leave; those in this one but not the previous
            // enter. (Also right for a window shorter than its slide: then the windows do not overlap.)
            leaving = perBatch.slice(previous.minus(window), earlier(windowStart, previous));
            entering = perBatch.slice(later(windowStart, previous), time);
        } else {
            leaving = List.of();
            entering = perBatch.slice(windowStart, time);
        }
        int partitions = partitioner.numPartitions();
        ClassTag<KeyedMap<K, V>> tag = ClassTags.any();
        RDD<KeyedMap<K, V>> in = unionOrEmpty(entering, partitions);
        RDD<KeyedMap<K, V>> out = unionOrEmpty(leaving, partitions);
        RDD<KeyedMap<K, V>> before = previousWindow != null ? previousWindow.rdd() : empty(partitions);
        // The entering batches come first: their partitioner is the one the result keeps.
        JavaRDD<KeyedMap<K, V>> maps = new JavaRDD<>(in.zipPartitions(out, before, true, merge, tag, tag, tag), tag);
        maps.setName(describe() + " window @ " + time.milliseconds());
        // One object per partition: cheap to keep deserialized (Spark sizes it once, not per record).
        return windows.add(time, maps, StorageLevel.MEMORY_ONLY(), isCheckpointTime(time));
    }

    /** The window's maps at {@code time} while they are remembered (one hash map per partition). */
    public Optional<JavaRDD<?>> windowState(Time time) {
        return windows.get(time).map(maps -> maps);
    }

    private RDD<KeyedMap<K, V>> unionOrEmpty(List<JavaRDD<KeyedMap<K, V>>> rdds, int partitions) {
        if (rdds.isEmpty()) {
            return empty(partitions);
        }
        if (rdds.size() == 1) {
            return rdds.get(0).rdd();
        }
        // All share the partitioner, so Spark's union is partition-wise: partition i of the union holds
        // partition i of each batch, in time order.
        @SuppressWarnings("unchecked")
        JavaRDD<KeyedMap<K, V>>[] all = rdds.toArray(JavaRDD[]::new);
        return context().sparkContext().union(all).rdd();
    }

    private RDD<KeyedMap<K, V>> empty(int partitions) {
        return context().sparkContext().<KeyedMap<K, V>>parallelize(List.of(), partitions).rdd();
    }

    /** Forgets window maps no batch can need any more (see {@link RddSeries}). */
    @Override
    protected void forgetOlderThan(Time oldestKept) {
        windows.forgetThrough(oldestKept);
    }

    private static Time earlier(Time a, Time b) {
        return a.isAfter(b) ? b : a;
    }

    private static Time later(Time a, Time b) {
        return a.isAfter(b) ? a : b;
    }
}
