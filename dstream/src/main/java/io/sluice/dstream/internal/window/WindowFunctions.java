package io.sluice.dstream.internal.window;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;

/** The combiner functions of groupByKeyAndWindow: each batch's groups are merged into one list per key. */
public final class WindowFunctions {
    private WindowFunctions() {
    }

    public static <V> Function<Iterable<V>, List<V>> listOf() {
        return values -> addAllTo(new ArrayList<>(), values);
    }

    public static <V> Function2<List<V>, Iterable<V>, List<V>> addAll() {
        return WindowFunctions::addAllTo;
    }

    public static <V> Function2<List<V>, List<V>, List<V>> concat() {
        return (a, b) -> {
            a.addAll(b);
            return a;
        };
    }

    private static <V> List<V> addAllTo(List<V> list, Iterable<V> values) {
        for (V v : values) {
            list.add(v);
        }
        return list;
    }
}
