package io.sluice.rdd.internal;

import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * Combines the records of one map task by key before they are shuffled, in an open-addressing hash table of
 * bounded size: when the table is full its combiners are emitted and it starts over, so memory stays bounded
 * whatever the input, and the reduce side merges whatever was emitted more than once.
 *
 * <p>Spark's own map-side combine keeps all combiners of a task (spilling to disk) and then sorts them by
 * partition and key hash before writing; for a micro-batch that sort is most of the shuffle's cost. Emitting
 * straight from a hash table lets Spark write the shuffle without sorting (its bypass path).
 */
final class PartialAggregator<K, V, C> implements Iterator<Tuple2<K, C>> {
    static final int DEFAULT_MAX_ENTRIES = 1 << 18;

    private final Iterator<Tuple2<K, V>> input;
    private final Function<V, C> createCombiner;
    private final Function2<C, V, C> mergeValue;
    private final int maxEntries;
    private int lastTableSize;
    private Iterator<Tuple2<K, C>> drained = Collections.emptyIterator();

    PartialAggregator(Iterator<Tuple2<K, V>> input, Function<V, C> createCombiner, Function2<C, V, C> mergeValue,
            int maxEntries) {
        this.input = input;
        this.createCombiner = createCombiner;
        this.mergeValue = mergeValue;
        this.maxEntries = maxEntries;
    }

    @Override
    public boolean hasNext() {
        while (!drained.hasNext()) {
            if (!input.hasNext()) {
                return false;
            }
            fill(); // a fresh table, after the last one was emitted because it was full
        }
        return true;
    }

    @Override
    public Tuple2<K, C> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return drained.next();
    }

    private void fill() {
        KeyedMap<K, C> table = new KeyedMap<>(lastTableSize);
        try {
            while (table.size() < maxEntries && input.hasNext()) {
                Tuple2<K, V> record = input.next();
                table.combine(record._1(), record._2(), createCombiner, mergeValue);
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        lastTableSize = table.size();
        drained = table.records();
    }
}
