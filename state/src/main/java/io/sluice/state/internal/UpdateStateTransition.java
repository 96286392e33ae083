package io.sluice.state.internal;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.Optional;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * updateStateByKey's transition of one partition. As in Spark Streaming the function is called for every key
 * with state (with the batch's values for it, possibly none) and for every new key of the batch; an empty
 * result removes the key. Unlike Spark Streaming no shuffle or cogroup of the state happens: the batch's
 * records are grouped in a hash table and the state is walked once, writing a fresh table.
 */
public final class UpdateStateTransition<K, V, S> implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Object CONSUMED = new Object();

    private final Function2<List<V>, Optional<S>, Optional<S>> function;
    private final String operator;

    public UpdateStateTransition(Function2<List<V>, Optional<S>, Optional<S>> function, String operator) {
        this.function = function;
        this.operator = operator;
    }

    public StateVersion<K, S> apply(StateVersion<K, S> previous, Iterator<Tuple2<K, V>> records, long batchTime) {
        StateTable groups = groups(records, batchTime);
        if (previous instanceof HeapStateVersion<K, S> heap) {
            return applyOnSlots(heap, groups, batchTime);
        }
        return applyByKey(previous, groups, batchTime);
    }

    /** The batch's values per key, in arrival order, in a table of lists. */
    @SuppressWarnings("unchecked")
    private static <K, V> StateTable groups(Iterator<Tuple2<K, V>> records, long batchTime) {
        StateTable groups = new StateTable(1024);
        while (records.hasNext()) {
            Tuple2<K, V> r = records.next();
            int h = StateTable.hash(r._1());
            int s = groups.find(r._1(), h);
            if (s >= 0) {
                ((List<V>) groups.valueAt(s)).add(r._2());
            } else {
                List<V> values = new ArrayList<>(2);
                values.add(r._2());
                groups.insertAt(s, r._1(), values, batchTime);
            }
        }
        return groups;
    }

    /**
     * On a state of another backend: the function for every key of the previous state (read in one pass), then
     * for the batch's new keys, through the backend's writer.
     */
    @SuppressWarnings("unchecked")
    private StateVersion<K, S> applyByKey(StateVersion<K, S> previous, StateTable groups, long batchTime) {
        StateWriter<K, S> writer = previous.writer(batchTime);
        try {
            previous.forEach((key, state, lastUpdate) -> {
                int s = groups.find(key);
                List<V> values = Collections.emptyList();
                if (s >= 0) {
                    values = (List<V>) groups.valueAt(s);
                    groups.setValue(s, CONSUMED);
                }
                writer.lookup(key);
                write(writer, key, call(key, values, Optional.ofNullable(state), batchTime));
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        for (int s = groups.nextSlot(0); s >= 0; s = groups.nextSlot(s + 1)) {
            Object values = groups.valueAt(s);
            if (values != CONSUMED) {
                Object key = groups.keyAt(s);
                writer.lookup(key);
                write(writer, key, call(key, (List<V>) values, Optional.empty(), batchTime));
            }
        }
        return writer.finish();
    }

    private static <S> void write(StateWriter<?, S> writer, Object key, Optional<S> result) {
        if (result.isPresent()) {
            writer.put(key, result.get());
        } else {
            writer.remove(key);
        }
    }

    /** On the heap: the previous tables walked on slots into a fresh table (no key object per key). */
    @SuppressWarnings("unchecked")
    private HeapStateVersion<K, S> applyOnSlots(HeapStateVersion<K, S> previous, StateTable groups, long batchTime) {
        StateTable next = new StateTable(previous.size() + groups.size());
        int changes = 0;
        if (previous.delta != null) {
            changes += walk(previous.delta, null, groups, next, batchTime);
        }
        changes += walk(previous.base, previous.delta, groups, next, batchTime);
        for (int s = groups.nextSlot(0); s >= 0; s = groups.nextSlot(s + 1)) {
            Object values = groups.valueAt(s);
            if (values != CONSUMED) {
                Optional<S> result = call(groups, s, (List<V>) values, Optional.empty(), batchTime);
                if (result.isPresent()) {
                    next.putFrom(groups, s, groups.hashAt(s), result.get(), batchTime);
                }
                changes++;
            }
        }
        return new HeapStateVersion<>(batchTime, next, null, next.size(), changes, 0, false, TimeoutIndex.EMPTY, null,
                batchTime);
    }

    /**
     * Calls the function for every live key of {@code table} (skipping those {@code shadow} holds), with the
     * batch's values for it, and writes the results to {@code next}. Works on slots: keys are compared and
     * copied as they are stored, and a key object is made only for an error message.
     */
    @SuppressWarnings("unchecked")
    private int walk(StateTable table, StateTable shadow, StateTable groups, StateTable next, long batchTime) {
        int calls = 0;
        for (int i = table.nextSlot(0); i >= 0; i = table.nextSlot(i + 1)) {
            if (StateTable.isTombstoneTime(table.timeAt(i))) {
                continue;
            }
            int h = table.hashAt(i);
            if (shadow != null && shadow.findFrom(table, i, h) >= 0) {
                continue;
            }
            int s = groups.findFrom(table, i, h);
            List<V> values;
            if (s >= 0) {
                values = (List<V>) groups.valueAt(s);
                groups.setValue(s, CONSUMED);
            } else {
                values = Collections.emptyList();
            }
            Optional<S> result = call(table, i, values, Optional.ofNullable((S) table.valueAt(i)), batchTime);
            if (result.isPresent()) {
                next.putFrom(table, i, h, result.get(), batchTime);
            }
            calls++;
        }
        return calls;
    }

    /** Calls the function for the key at {@code slot} of {@code table}. */
    private Optional<S> call(StateTable table, int slot, List<V> values, Optional<S> state, long batchTime) {
        Optional<S> result;
        try {
            result = function.call(values, state);
        } catch (Exception | Error e) {
            throw new StateFunctionException(operator, table.keyAt(slot), batchTime, e);
        }
        return checked(result, table.keyAt(slot), batchTime);
    }

    /** Calls the function for {@code key}. */
    private Optional<S> call(Object key, List<V> values, Optional<S> state, long batchTime) {
        Optional<S> result;
        try {
            result = function.call(values, state);
        } catch (Exception | Error e) {
            throw new StateFunctionException(operator, key, batchTime, e);
        }
        return checked(result, key, batchTime);
    }

    private Optional<S> checked(Optional<S> result, Object key, long batchTime) {
        if (result == null) {
            throw new StateFunctionException(operator, key, batchTime,
                    new NullPointerException("the update function returned null; return Optional.empty() to "
                            + "remove the key"));
        }
        return result;
    }
}
