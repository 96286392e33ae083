package io.sluice.dstream;

import io.sluice.dstream.internal.DerivedOperator;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.OperatorException;
import io.sluice.dstream.internal.state.MapWithStateOperator;
import java.time.Duration;
import java.util.List;
import scala.Tuple2;

/**
 * The stream {@link PairDStream#mapWithState} returns: each batch holds the records the mapping function
 * emitted in that batch, and {@link #stateSnapshots()} gives the state after each batch. Mirrors Spark
 * Streaming's {@code JavaMapWithStateDStream}.
 *
 * <p>{@link #checkpoint(Duration)} sets how often the state's lineage is cut (default every ten batch
 * intervals), and {@link #name(String)} names the state: checkpoints attach the state to that name.
 *
 * @param <K> key type
 * @param <V> value type
 * @param <S> state type
 * @param <M> type of the emitted records
 */
public final class MapWithStateDStream<K, V, S, M> extends DStream<M> {
    MapWithStateDStream(StreamingContext context, Node<M> state) {
        super(context, state);
    }

    /** The state of every key after each batch, as (key, state) pairs. */
    public PairDStream<K, S> stateSnapshots() {
        return new PairDStream<>(context, DerivedOperator.<Tuple2<K, S>>nodeOnOperators(description(),
                "stateSnapshots", List.of(node()), operators -> {
                    @SuppressWarnings("unchecked")
                    MapWithStateOperator<K, V, S, M> state = (MapWithStateOperator<K, V, S, M>) operators.get(0);
                    return (ignored, time, fns) -> state.snapshots(time).orElseThrow(() -> new OperatorException(
                            state, time, new IllegalStateException("no state at this batch")));
                }));
    }

    /**
     * The state of every key after the newest completed batch, as (key, state) pairs: what a notebook reads
     * between {@code runBatches} calls. Needs a started context that completed a batch.
     */
    public org.apache.spark.api.java.JavaPairRDD<K, S> currentState() {
        io.sluice.rdd.Time last = context.lastCompletedBatch().orElseThrow(() -> new IllegalStateException(
                "no batch has completed yet: run some batches first"));
        @SuppressWarnings("unchecked")
        MapWithStateOperator<K, V, S, M> state = (MapWithStateOperator<K, V, S, M>) (Object) operator();
        return org.apache.spark.api.java.JavaPairRDD.fromJavaRDD(state.snapshots(last).orElseThrow(
                () -> new IllegalStateException("no state at batch " + last)));
    }

    /** Cuts the state's lineage every {@code interval} (reliably with a checkpoint directory, else locally). */
    @Override
    public MapWithStateDStream<K, V, S, M> checkpoint(Duration interval) {
        super.checkpoint(interval);
        return this;
    }

    @Override
    public MapWithStateDStream<K, V, S, M> name(String name) {
        super.name(name);
        return this;
    }
}
