package io.sluice.dstream.internal.state;

import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.Rdds;
import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Transforms;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.StateRDD;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.UpdateStateTransition;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.Optional;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/** updateStateByKey: its output is the whole state, as (key, state) pairs, after every batch. */
public final class UpdateStateOperator<K, V, S> extends StatefulOperator<K, V, S, StateVersion<K, S>, Tuple2<K, S>> {
    private final Function2<List<V>, Optional<S>, Optional<S>> function;

    private UpdateStateOperator(Config config, Function2<List<V>, Optional<S>, Optional<S>> function,
            KeyGroupPartitioner partitioner, JavaPairRDD<K, S> initialState, StateBackend backend) {
        super(config, partitioner, initialState, backend);
        this.function = function;
    }

    /**
     * Describes updateStateByKey over {@code parent}, its state in backend {@code backend} (null: the one
     * {@code settings} name when the context starts).
     */
    public static <K, V, S> Node<Tuple2<K, S>> node(GraphDescription graph, Node<Tuple2<K, V>> parent,
            Function2<List<V>, Optional<S>, Optional<S>> function, KeyGroupPartitioner partitioner,
            JavaPairRDD<K, S> initialState, String backend, Function<String, String> settings) {
        return statefulNode(graph, "updateStateByKey", parent, function,
                config -> new UpdateStateOperator<>(config, function, partitioner, initialState,
                        backendOf(backend, settings, partitioner)));
    }

    @Override
    protected boolean timed() {
        return false;
    }

    @Override
    protected StateRDD.Transition<Object, Tuple2<K, V>, StateVersion<K, S>> transition(Time time) {
        UpdateStateTransition<K, V, S> t = new UpdateStateTransition<>(function, describe());
        long at = time.milliseconds();
        StateBackend backend = backend();
        return (previous, records, partition) -> t.apply(versionIn(previous, backend, at, false), records, at);
    }

    @Override
    protected JavaRDD<Tuple2<K, S>> output(JavaRDD<StateVersion<K, S>> states, Time time) {
        return Rdds.tuples(Transforms.flatMapToPair(states, UpdateStateOperator::entries)); // tagged Tuple2
    }

    private static <K, S> java.util.Iterator<Tuple2<K, S>> entries(StateVersion<K, S> version) {
        return version.iterator(Tuple2::new);
    }

    @Override
    protected JavaRDD<StateVersion<K, S>> versions(JavaRDD<StateVersion<K, S>> states) {
        return states;
    }
}
