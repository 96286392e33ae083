package io.sluice.dstream.internal.window;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractFunction3;

/**
 * One partition of an incremental window: the previous window's partition, updated with the partitions of
 * the batches entering and leaving the window. All three are partitioned alike, so this runs without a
 * shuffle; it touches each key of the previous window once and each entering or leaving key once more.
 *
 * <p>Per key, as Spark Streaming's ReducedWindowedDStream: {@code reduce(inverse(previous, leaving),
 * entering)}, where leaving and entering are each reduced over their batches in time order; a key new to the
 * window gets its entering value. A key that leaves but is neither in the previous window (the filter dropped
 * it) nor entering has no value in this window either (Spark Streaming fails the batch there).
 */
final class WindowMerge<K, V> extends AbstractFunction3<scala.collection.Iterator<Tuple2<K, V>>,
        scala.collection.Iterator<Tuple2<K, V>>, scala.collection.Iterator<Tuple2<K, V>>,
        scala.collection.Iterator<Tuple2<K, V>>> implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Stands for a null value in the per-partition maps, where null means "absent". */
    private static final Object NULL = new Serializable() {
        private static final long serialVersionUID = 1L;
    };

    private final Function2<V, V, V> reduce;
    private final Function2<V, V, V> inverse;
    private final Function<Tuple2<K, V>, Boolean> filter; // null: keep every key

    WindowMerge(Function2<V, V, V> reduce, Function2<V, V, V> inverse, Function<Tuple2<K, V>, Boolean> filter) {
        this.reduce = reduce;
        this.inverse = inverse;
        this.filter = filter;
    }

    @Override
    public scala.collection.Iterator<Tuple2<K, V>> apply(scala.collection.Iterator<Tuple2<K, V>> entering,
            scala.collection.Iterator<Tuple2<K, V>> leaving, scala.collection.Iterator<Tuple2<K, V>> previous) {
        try {
            Map<K, Object> in = reduceByKey(entering);
            Map<K, Object> out = reduceByKey(leaving);
            return CollectionConverters.asScala(new Merged(previous, in, out));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the window's reduce function failed: " + e, e);
        }
    }

    private Map<K, Object> reduceByKey(scala.collection.Iterator<Tuple2<K, V>> records) throws Exception {
        Map<K, Object> values = new HashMap<>();
        while (records.hasNext()) {
            Tuple2<K, V> r = records.next();
            Object before = values.get(r._1());
            Object after = before == null ? r._2() : reduce.call(unwrap(before), r._2());
            values.put(r._1(), after == null ? NULL : after);
        }
        return values;
    }

    @SuppressWarnings("unchecked")
    private static <V> V unwrap(Object stored) {
        return stored == NULL ? null : (V) stored;
    }

    /** The previous window's records, updated, then the keys new to the window; filtered lazily. */
    private final class Merged implements Iterator<Tuple2<K, V>> {
        private final scala.collection.Iterator<Tuple2<K, V>> previous;
        private final Map<K, Object> in;
        private final Map<K, Object> out;
        private Iterator<Map.Entry<K, Object>> fresh; // keys new to the window, once previous is exhausted
        private Tuple2<K, V> next;

        Merged(scala.collection.Iterator<Tuple2<K, V>> previous, Map<K, Object> in, Map<K, Object> out) {
            this.previous = previous;
            this.in = in;
            this.out = out;
        }

        @Override
        public boolean hasNext() {
            try {
                while (next == null) {
                    Tuple2<K, V> candidate = advance();
                    if (candidate == null) {
                        return false;
                    }
                    if (filter == null || filter.call(candidate)) {
                        next = candidate;
                    }
                }
                return true;
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("the window's reduce or filter function failed: " + e, e);
            }
        }

        @Override
        public Tuple2<K, V> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Tuple2<K, V> r = next;
            next = null;
            return r;
        }

        private Tuple2<K, V> advance() throws Exception {
            if (fresh == null) {
                if (previous.hasNext()) {
                    Tuple2<K, V> p = previous.next();
                    Object left = out.isEmpty() ? null : out.get(p._1());
                    Object entered = in.isEmpty() ? null : in.remove(p._1());
                    if (left == null && entered == null) {
                        return p; // untouched by this slide: the same record, no copy
                    }
                    V value = p._2();
                    if (left != null) {
                        value = inverse.call(value, unwrap(left));
                    }
                    if (entered != null) {
                        value = reduce.call(value, unwrap(entered));
                    }
                    return new Tuple2<>(p._1(), value);
                }
                fresh = in.entrySet().iterator();
            }
            if (fresh.hasNext()) {
                Map.Entry<K, Object> e = fresh.next();
                return new Tuple2<>(e.getKey(), unwrap(e.getValue()));
            }
            return null;
        }
    }
}
