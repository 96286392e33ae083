package io.sluice.dstream.internal.window;

import io.sluice.rdd.internal.KeyedMap;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * The shape incremental windows keep their data in: one {@link KeyedMap} per partition, so a partition is one
 * cached object instead of one record per key, and the window update looks keys up where they already are.
 * These are the functions that turn records into such maps and back.
 */
final class KeyedMaps {
    private KeyedMaps() {
    }

    /** Folds a partition's (key, value) records, a key possibly repeated, into one map: values reduced by f. */
    static <K, V> FlatMapFunction<Iterator<Tuple2<K, V>>, KeyedMap<K, V>> reducedIntoMap(Function2<V, V, V> f) {
        return records -> {
            KeyedMap<K, V> map = new KeyedMap<>();
            while (records.hasNext()) {
                Tuple2<K, V> r = records.next();
                map.merge(r._1(), r._2(), f);
            }
            return List.of(map).iterator();
        };
    }

    /** The records of a partition's maps, as (key, value) pairs. */
    static <K, V> FlatMapFunction<Iterator<KeyedMap<K, V>>, Tuple2<K, V>> records() {
        return maps -> new Iterator<>() {
            private Iterator<Tuple2<K, V>> entries = Collections.emptyIterator();

            @Override
            public boolean hasNext() {
                while (!entries.hasNext() && maps.hasNext()) {
                    entries = maps.next().records();
                }
                return entries.hasNext();
            }

            @Override
            public Tuple2<K, V> next() {
                hasNext();
                return entries.next();
            }
        };
    }
}
