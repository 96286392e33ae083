package io.sluice.dstream.internal.state;

import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.Rdds;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Transforms;
import io.sluice.state.StateSpec;
import io.sluice.state.internal.MapWithStateBatch;
import io.sluice.state.internal.MapWithStateTransition;
import io.sluice.state.internal.MappingFunction;
import io.sluice.state.internal.StatePartitioning;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.StateRDD;
import io.sluice.state.internal.StateVersion;
import org.apache.spark.api.java.JavaRDD;
import java.util.function.Function;
import scala.Tuple2;

/** mapWithState: its output is what the function emitted; {@link #snapshots} gives the state after each batch. */
public final class MapWithStateOperator<K, V, S, M> extends StatefulOperator<K, V, S, MapWithStateBatch<K, S, M>, M> {
    private final StateSpec<K, V, S, M> spec;
    private final long timeoutMillis;

    private MapWithStateOperator(Config config, StateSpec<K, V, S, M> spec, KeyGroupPartitioner partitioner,
            StateBackend backend) {
        super(config, partitioner, spec.getInitialState().orElse(null), backend);
        this.spec = spec;
        this.timeoutMillis = spec.getTimeout().map(java.time.Duration::toMillis).orElse(0L);
    }

    /**
     * Describes mapWithState over {@code parent}; {@code defaultParallelism} sizes the state without a spec, and
     * {@code settings} (read at start) give the backend where the spec does not.
     */
    public static <K, V, S, M> Node<M> node(GraphDescription graph, Node<Tuple2<K, V>> parent,
            StateSpec<K, V, S, M> spec, int defaultParallelism, Function<String, String> settings) {
        KeyGroupPartitioner partitioner = StatePartitioning.of(spec.getPartitioner().orElse(null),
                spec.getNumPartitions().orElse(null), defaultParallelism);
        return statefulNode(graph, "mapWithState", parent, spec.userFunction(),
                config -> new MapWithStateOperator<>(config, spec, partitioner,
                        backendOf(spec.getBackend().orElse(null), settings, partitioner)));
    }

    @Override
    protected boolean timed() {
        return timeoutMillis > 0;
    }

    @Override
    protected StateRDD.Transition<Object, Tuple2<K, V>, MapWithStateBatch<K, S, M>> transition(Time time) {
        MapWithStateTransition<K, V, S, M> t = new MapWithStateTransition<>(MappingFunction.of(spec), timeoutMillis,
                describe());
        long at = time.milliseconds();
        boolean timed = timed();
        StateBackend backend = backend();
        return (previous, records, partition) -> t.apply(versionIn(previous, backend, at, timed), records, at);
    }

    @Override
    protected JavaRDD<M> output(JavaRDD<MapWithStateBatch<K, S, M>> states, Time time) {
        return Transforms.flatMap(states, MapWithStateOperator::mapped);
    }

    private static <M> java.util.Iterator<M> mapped(MapWithStateBatch<?, ?, M> batch) {
        return batch.mapped().iterator();
    }

    @Override
    protected JavaRDD<StateVersion<K, S>> versions(JavaRDD<MapWithStateBatch<K, S, M>> states) {
        return Transforms.map(states, MapWithStateBatch::state);
    }

    /** The (key, state) pairs after batch {@code time}. */
    public java.util.Optional<JavaRDD<Tuple2<K, S>>> snapshots(Time time) {
        // Pairs, tagged so (collectAsMap needs an RDD whose class tag is Tuple2's).
        return stateRecords(time).map(s -> Rdds.tuples(Transforms.flatMapToPair(s, MapWithStateOperator::entries)));
    }

    private static <K, S> java.util.Iterator<Tuple2<K, S>> entries(MapWithStateBatch<K, S, ?> batch) {
        return batch.state().iterator(Tuple2::new);
    }
}
