package io.sluice.dstream.internal.window;

import static io.sluice.dstream.internal.window.KeyedMaps.unwrap;
import static io.sluice.dstream.internal.window.KeyedMaps.wrap;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractFunction3;

/**
 * One partition of an incremental window: a copy of the previous window's map, updated with the maps of the
 * batches leaving and entering the window. All are partitioned alike, so this runs without a shuffle; it costs
 * a copy of the window's map plus one update per leaving and per entering key.
 *
 * <p>Per key, as Spark Streaming's ReducedWindowedDStream: {@code f(invF(previous, leaving), entering)}, where
 * leaving and entering are each reduced over their batches in time order; a key new to the window gets its
 * entering value. A key that leaves but is not in the previous window (the filter dropped it) stays out (Spark
 * Streaming fails the batch there, or ignores the leaving value when a new one enters). The filter then drops
 * the keys it rejects, from this window and so from the next one's start.
 */
final class WindowMerge<K, V> extends AbstractFunction3<scala.collection.Iterator<HashMap<K, Object>>,
        scala.collection.Iterator<HashMap<K, Object>>, scala.collection.Iterator<HashMap<K, Object>>,
        scala.collection.Iterator<HashMap<K, Object>>> implements Serializable {
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
    public scala.collection.Iterator<HashMap<K, Object>> apply(scala.collection.Iterator<HashMap<K, Object>> entering,
            scala.collection.Iterator<HashMap<K, Object>> leaving,
            scala.collection.Iterator<HashMap<K, Object>> previous) {
        try {
            Map<K, Object> in = reduced(entering);
            Map<K, Object> out = reduced(leaving);
            HashMap<K, Object> window = previous.hasNext() ? new HashMap<>(previous.next()) : new HashMap<>();
            for (Map.Entry<K, Object> e : out.entrySet()) {
                Object current = window.get(e.getKey());
                if (current != null) {
                    window.put(e.getKey(), wrap(inverse.call(unwrap(current), unwrap(e.getValue()))));
                }
            }
            for (Map.Entry<K, Object> e : in.entrySet()) {
                Object current = window.putIfAbsent(e.getKey(), e.getValue());
                if (current != null) {
                    window.put(e.getKey(), wrap(reduce.call(unwrap(current), unwrap(e.getValue()))));
                }
            }
            if (filter != null) {
                Iterator<Map.Entry<K, Object>> it = window.entrySet().iterator();
                while (it.hasNext()) {
                    Map.Entry<K, Object> e = it.next();
                    if (!filter.call(new Tuple2<>(e.getKey(), unwrap(e.getValue())))) {
                        it.remove();
                    }
                }
            }
            return CollectionConverters.asScala(List.of(window).iterator());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("a reduce, inverse or filter function of the window failed: " + e, e);
        }
    }

    /** The batches' maps reduced into one, in time order; a lone map is used as it is (never modified). */
    private Map<K, Object> reduced(scala.collection.Iterator<HashMap<K, Object>> maps) throws Exception {
        if (!maps.hasNext()) {
            return Map.of();
        }
        HashMap<K, Object> first = maps.next();
        if (!maps.hasNext()) {
            return first;
        }
        HashMap<K, Object> all = new HashMap<>(first);
        while (maps.hasNext()) {
            for (Map.Entry<K, Object> e : maps.next().entrySet()) {
                Object before = all.putIfAbsent(e.getKey(), e.getValue());
                if (before != null) {
                    all.put(e.getKey(), wrap(reduce.call(unwrap(before), unwrap(e.getValue()))));
                }
            }
        }
        return all;
    }
}
