package io.sluice.dstream.testing;

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
        batches.put(time, List.copyOf(records));
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
