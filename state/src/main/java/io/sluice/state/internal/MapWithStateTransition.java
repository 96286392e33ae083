package io.sluice.state.internal;

import io.sluice.rdd.Time;
import java.io.Serializable;
import java.util.Iterator;
import org.apache.spark.api.java.Optional;
import scala.Tuple2;

/**
 * mapWithState's transition of one partition: (state after t-1, records of t in arrival order, t) to (state
 * after t, emitted records). A plain function: the previous state is never modified, so it can be retried.
 *
 * <p>As in Spark Streaming, every record goes through the function on its own; a record of a key with state
 * refreshes the key's update time when there is a timeout, even if the function leaves the state alone. Then
 * the keys whose last update is older than t minus the timeout are called once more, timing out, and removed.
 */
public final class MapWithStateTransition<K, V, S, M> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final MappingFunction<K, V, S, M> function;
    private final long timeoutMillis;
    private final String operator;

    /**
     * @param timeoutMillis the timeout, or 0 for none
     * @param operator how errors name the operator
     */
    public MapWithStateTransition(MappingFunction<K, V, S, M> function, long timeoutMillis, String operator) {
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeoutMillis);
        }
        this.function = function;
        this.timeoutMillis = timeoutMillis;
        this.operator = operator;
    }

    public boolean timed() {
        return timeoutMillis > 0;
    }

    @SuppressWarnings("unchecked")
    public MapWithStateBatch<K, S, M> apply(StateVersion<K, S> previous, Iterator<Tuple2<K, V>> records,
            long batchTime) {
        StateWriter<K, S> writer = previous.writer(batchTime);
        StateSlot<S> slot = new StateSlot<>();
        Time time = Time.ofMillis(batchTime);
        boolean timed = timed();
        EmittedRecords<M> out = new EmittedRecords<>();
        // The loop is the iterator's, as in BucketedRDD: the per-record body compiles early, on its own.
        writer.readAhead(records).forEachRemaining(record -> {
            K key = record._1();
            writer.lookup(key);
            slot.wrap(writer.exists(), writer.value());
            Object emitted;
            try {
                emitted = function.call(time, key, Optional.of(record._2()), slot);
            } catch (Exception | Error e) {
                throw new StateFunctionException(operator, key, batchTime, e);
            }
            if (slot.isRemoved()) {
                writer.remove(key);
            } else if (slot.isUpdated()) {
                writer.put(key, slot.get());
            } else if (timed) {
                writer.touch(key);
            }
            if (emitted != MappingFunction.NONE) {
                out.add((M) emitted);
            }
        });
        if (timed) {
            try {
                writer.expire(batchTime - timeoutMillis, (key, state) -> {
                    slot.wrapTimingOut(state);
                    Object emitted;
                    try {
                        emitted = function.call(time, key, Optional.empty(), slot);
                    } catch (Exception | Error e) {
                        throw new StateFunctionException(operator, key, batchTime, e);
                    }
                    if (emitted != MappingFunction.NONE) {
                        out.add((M) emitted);
                    }
                });
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return new MapWithStateBatch<>(writer.finish(), out.trimmed());
    }
}
