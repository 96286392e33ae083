package io.sluice.dstream.internal.window;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * The shape incremental windows keep their data in: one hash map per partition (key to value), so a partition
 * is one cached object instead of one record per key, and the window update looks keys up where they already
 * are. Null values are stored as {@link #NULL}, as a missing key and a null value must differ.
 */
final class KeyedMaps {
    static final Object NULL = new Object();

    private KeyedMaps() {
    }

    static Object wrap(Object value) {
        return value == null ? NULL : value;
    }

    @SuppressWarnings("unchecked")
    static <V> V unwrap(Object stored) {
        return stored == NULL ? null : (V) stored;
    }

    /** Folds a partition's (key, value) records, a key possibly repeated, into one map: values reduced by f. */
    static <K, V> FlatMapFunction<Iterator<Tuple2<K, V>>, HashMap<K, Object>> reducedIntoMap(Function2<V, V, V> f) {
        return records -> {
            HashMap<K, Object> map = new HashMap<>();
            while (records.hasNext()) {
                Tuple2<K, V> r = records.next();
                Object before = map.get(r._1());
                map.put(r._1(), before == null ? wrap(r._2()) : wrap(f.call(unwrap(before), r._2())));
            }
            return List.of(map).iterator();
        };
    }

    /** The records of a partition's maps, as (key, value) pairs. */
    static <K, V> FlatMapFunction<Iterator<HashMap<K, Object>>, Tuple2<K, V>> records() {
        return maps -> new Iterator<>() {
            private Iterator<Map.Entry<K, Object>> entries = java.util.Collections.emptyIterator();

            @Override
            public boolean hasNext() {
                while (!entries.hasNext() && maps.hasNext()) {
                    entries = maps.next().entrySet().iterator();
                }
                return entries.hasNext();
            }

            @Override
            public Tuple2<K, V> next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                Map.Entry<K, Object> e = entries.next();
                return new Tuple2<>(e.getKey(), unwrap(e.getValue()));
            }
        };
    }
}
