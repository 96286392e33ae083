package io.sluice.testkit;

import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The output of one stream, batch by batch, as collected on the driver ({@link StreamTester#collect}). The
 * assertions throw {@link AssertionError} naming the first batch that differs, so they work under any test
 * framework.
 */
public final class Collected<T> {
    private final NavigableMap<Time, List<T>> batches = new ConcurrentSkipListMap<>();

    /**
     * Records the output of the batch at {@code time}. {@link StreamTester#collect} calls it from the stream's
     * output; a test may call it from another engine's output (a Spark Streaming run of the same job).
     */
    public void add(Time time, List<T> records) {
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
        assertSame("output per batch", expected, batches());
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
        assertSame("output per batch (as multisets)", want, got);
    }

    private void assertSame(String what, List<?> expected, List<?> actual) {
        if (expected.equals(actual)) {
            return;
        }
        List<Time> times = new ArrayList<>(batches.keySet());
        StringBuilder message = new StringBuilder(what).append(": expected ").append(expected.size())
                .append(" batches, got ").append(actual.size());
        for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
            Object want = i < expected.size() ? expected.get(i) : "(no batch)";
            Object got = i < actual.size() ? actual.get(i) : "(no batch)";
            if (!Objects.equals(want, got)) {
                String at = i < times.size() ? " at " + times.get(i) : "";
                message.append("; first difference in batch ").append(i).append(at).append(": expected <")
                        .append(want).append("> but was <").append(got).append('>');
                break;
            }
        }
        throw new AssertionError(message.append("\nexpected: ").append(expected).append("\nactual:   ").append(actual));
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
