package io.sluice.testkit;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.Optional;
import scala.Tuple2;

/**
 * Makes records comparable across runs and engines: a grouped value ({@code Iterable} that is not a
 * {@code List}, e.g. what groupByKey or cogroup give) becomes a multiset, because Spark does not fix the
 * order of values within a group; lists (glom) keep their order. Applied recursively through tuples and
 * optionals.
 */
public final class Records {
    private Records() {
    }

    public static Object normalize(Object record) {
        if (record instanceof Tuple2<?, ?> t) {
            return new Tuple2<>(normalize(t._1()), normalize(t._2()));
        }
        if (record instanceof Optional<?> o) {
            return o.isPresent() ? Optional.of(normalize(o.get())) : Optional.empty();
        }
        if (record instanceof List<?> list) {
            List<Object> result = new ArrayList<>();
            list.forEach(x -> result.add(normalize(x)));
            return result;
        }
        if (record instanceof Iterable<?> values) {
            List<Object> all = new ArrayList<>();
            values.forEach(x -> all.add(normalize(x)));
            return Collected.multiset(all);
        }
        return record;
    }

    public static List<Object> normalizeAll(List<?> records) {
        List<Object> result = new ArrayList<>(records.size());
        records.forEach(r -> result.add(normalize(r)));
        return result;
    }
}
