package io.sluice.dstream.internal.window;

import io.sluice.rdd.internal.KeyedMap;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractFunction3;

/**
 * One partition of an incremental window: a copy of the previous window's map, updated with the maps of the
 * batches leaving and entering the window. All are partitioned alike, so this runs without a shuffle; it costs
 * a copy of the window's map (a few array copies) plus one update per leaving and per entering key.
 *
 * <p>Per key, as Spark Streaming's ReducedWindowedDStream: {@code f(invF(previous, leaving), entering)}, where
 * leaving and entering are each reduced over their batches in time order; a key new to the window gets its
 * entering value. A key that leaves but is not in the previous window (the filter dropped it) stays out (Spark
 * Streaming fails the batch there, or ignores the leaving value when a new one enters). The filter then drops
 * the keys it rejects, from this window and so from the next one's start.
 */
final class WindowMerge<K, V> extends AbstractFunction3<scala.collection.Iterator<KeyedMap<K, V>>,
        scala.collection.Iterator<KeyedMap<K, V>>, scala.collection.Iterator<KeyedMap<K, V>>,
        scala.collection.Iterator<KeyedMap<K, V>>> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Function2<V, V, V> reduce;
    private final Function2<V, V, V> inverse;
    private final Function<Tuple2<K, V>, Boolean> filter; // null: keep every key

    WindowMerge(Function2<V, V, V> reduce, Function2<V, V, V> inverse, Function<Tuple2<K, V>, Boolean> filter) {
        this.reduce = reduce;
        this.inverse = inverse;
        this.filter = filter;
    }

    @Override
    public scala.collection.Iterator<KeyedMap<K, V>> apply(scala.collection.Iterator<KeyedMap<K, V>> entering,
            scala.collection.Iterator<KeyedMap<K, V>> leaving, scala.collection.Iterator<KeyedMap<K, V>> previous) {
        try {
            KeyedMap<K, V> in = reduced(entering);
            KeyedMap<K, V> out = reduced(leaving);
            KeyedMap<K, V> window = previous.hasNext() ? previous.next().copy() : new KeyedMap<>(in.size());
            window.updateAllPresent(out, inverse);
            window.mergeAll(in, reduce);
            if (filter != null) {
                window = window.filtered(filter);
            }
            return CollectionConverters.asScala(List.of(window).iterator());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("a reduce, inverse or filter function of the window failed: " + e, e);
        }
    }

    /** The batches' maps reduced into one, in time order; a lone map is used as it is (never modified). */
    private KeyedMap<K, V> reduced(scala.collection.Iterator<KeyedMap<K, V>> maps) throws Exception {
        if (!maps.hasNext()) {
            return new KeyedMap<>();
        }
        KeyedMap<K, V> first = maps.next();
        if (!maps.hasNext()) {
            return first;
        }
        KeyedMap<K, V> all = first.copy();
        while (maps.hasNext()) {
            all.mergeAll(maps.next(), reduce);
        }
        return all;
    }
}
