package io.sluice.dstream.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/** The output of one stream, batch by batch, as collected on the driver. */
public final class Collected<T> {
    private final NavigableMap<Time, List<T>> batches = new ConcurrentSkipListMap<>();

    void add(Time time, List<T> records) {
        if (batches.putIfAbsent(time, List.copyOf(records)) != null) {
            throw new AssertionError("batch " + time + " was output twice");
        }
    }

    /** Each batch's records in RDD order, oldest batch first. */
    public List<List<T>> batches() {
        return new ArrayList<>(batches.values());
    }

    public Map<Time, List<T>> byTime() {
        return Map.copyOf(batches);
    }

    /** Each batch as a multiset (element to count), for outputs whose order Spark does not fix. */
    public List<Map<T, Integer>> unordered() {
        List<Map<T, Integer>> result = new ArrayList<>();
        for (List<T> batch : batches.values()) {
            result.add(multiset(batch));
        }
        return result;
    }

    /** Each batch's records with grouped values as multisets (see {@link Records#normalize}). */
    public List<List<Object>> normalized() {
        List<List<Object>> result = new ArrayList<>();
        for (List<T> batch : batches.values()) {
            result.add(Records.normalizeAll(batch));
        }
        return result;
    }

    /** Asserts the batches, in order and each in RDD order. */
    public void assertBatches(List<List<T>> expected) {
        assertEquals(expected, batches(), "output per batch");
    }

    /** Asserts the batches in order, each as a multiset, with grouped values as multisets too. */
    public void assertUnordered(List<? extends List<?>> expected) {
        List<Map<Object, Integer>> want = new ArrayList<>();
        for (List<?> batch : expected) {
            want.add(multiset(Records.normalizeAll(batch)));
        }
        List<Map<Object, Integer>> got = new ArrayList<>();
        for (List<Object> batch : normalized()) {
            got.add(multiset(batch));
        }
        assertEquals(want, got, "output per batch (as multisets)");
    }

    public static <T> Map<T, Integer> multiset(Collection<T> records) {
        Map<T, Integer> counts = new HashMap<>();
        for (T r : records) {
            counts.merge(r, 1, Integer::sum);
        }
        return counts;
    }

    /** Expected batches as multisets, for comparing with {@link #unordered()}. */
    public static <T> List<Map<T, Integer>> multisets(List<List<T>> batches) {
        List<Map<T, Integer>> result = new ArrayList<>();
        for (List<T> batch : batches) {
            result.add(multiset(batch));
        }
        return result;
    }
}
