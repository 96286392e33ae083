package io.sluice.rdd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.rdd.SluiceKryoRegistrator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/** The window's hash table against java.util.HashMap doing the same, including null keys and values. */
class KeyedMapTest {
    private static final Function2<Integer, Integer, Integer> SUM = (a, b) -> a == null || b == null ? null : a + b;
    private static final Function2<Integer, Integer, Integer> MINUS = (a, b) -> a == null || b == null ? null : a - b;

    @Test
    void mergesUpdatesAndFiltersAsAHashMapWould() throws Exception {
        Random random = new Random(42);
        KeyedMap<String, Integer> map = new KeyedMap<>();
        Map<String, Integer> expected = new HashMap<>();
        for (int i = 0; i < 50_000; i++) { // grows many times over
            String key = random.nextInt(100) == 0 ? null : "k" + random.nextInt(20_000);
            Integer value = random.nextInt(50) == 0 ? null : random.nextInt(10);
            map.merge(key, value, SUM);
            expected.merge(key, value == null ? NULL_MARK : value, (a, b) -> sum(a, b));
        }
        assertEquals(unmark(expected), contents(map));

        KeyedMap<String, Integer> leaving = new KeyedMap<>();
        leaving.merge("k1", 1, SUM);
        leaving.merge("absent", 5, SUM);
        KeyedMap<String, Integer> window = map.copy();
        window.updateAllPresent(leaving, MINUS);
        Map<String, Integer> afterLeaving = unmark(expected);
        afterLeaving.computeIfPresent("k1", (k, v) -> v - 1);
        assertEquals(afterLeaving, contents(window), "absent keys are ignored, present ones updated");
        assertEquals(unmark(expected), contents(map), "the copy is independent of the original");

        KeyedMap<String, Integer> entering = new KeyedMap<>();
        entering.merge("new", 7, SUM);
        entering.merge("k1", 1, SUM);
        window.mergeAll(entering, SUM);
        afterLeaving.put("new", 7);
        afterLeaving.computeIfPresent("k1", (k, v) -> v + 1);
        assertEquals(afterLeaving, contents(window));

        KeyedMap<String, Integer> even = window.filtered(r -> r._2() != null && r._2() % 2 == 0);
        Map<String, Integer> expectedEven = new HashMap<>();
        afterLeaving.forEach((k, v) -> {
            if (v != null && v % 2 == 0) {
                expectedEven.put(k, v);
            }
        });
        assertEquals(expectedEven, contents(even));
        assertEquals(expectedEven.size(), even.size());
    }

    @Test
    void writtenByKryoAndByJavaSerializationAsItsEntries() throws Exception {
        KeyedMap<String, Integer> map = new KeyedMap<>();
        for (int i = 0; i < 1_000; i++) {
            map.merge("k" + i, i, SUM);
        }
        map.merge(null, 3, SUM);
        map.merge("nullValue", null, SUM);

        SerializerInstance kryo = new KryoSerializer(new SparkConf()
                .set("spark.kryo.registrator", SluiceKryoRegistrator.class.getName())).newInstance();
        ClassTag<KeyedMap<String, Integer>> tag = ClassTag$.MODULE$.apply(KeyedMap.class);
        KeyedMap<String, Integer> viaKryo = kryo.deserialize(kryo.serialize(map, tag), tag);
        assertEquals(contents(map), contents(viaKryo));
        viaKryo.merge("k1", 10, SUM); // still a working table after reading
        assertEquals(11, contents(viaKryo).get("k1"));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(map);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            @SuppressWarnings("unchecked")
            KeyedMap<String, Integer> viaJava = (KeyedMap<String, Integer>) in.readObject();
            assertEquals(contents(map), contents(viaJava));
        }
    }

    @Test
    void aFailingFunctionIsNotSwallowed() {
        KeyedMap<String, Integer> map = new KeyedMap<>();
        Function2<Integer, Integer, Integer> failing = (a, b) -> {
            throw new IllegalArgumentException("bad value " + b);
        };
        assertThrows(IllegalArgumentException.class, () -> {
            map.merge("k", 1, failing);
            map.merge("k", 2, failing);
        });
    }

    private static final Integer NULL_MARK = Integer.MIN_VALUE;

    private static Integer sum(Integer a, Integer b) {
        return a.equals(NULL_MARK) || b.equals(NULL_MARK) ? NULL_MARK : a + b;
    }

    private static Map<String, Integer> unmark(Map<String, Integer> marked) {
        Map<String, Integer> plain = new HashMap<>();
        marked.forEach((k, v) -> plain.put(k, NULL_MARK.equals(v) ? null : v));
        return plain;
    }

    private static Map<String, Integer> contents(KeyedMap<String, Integer> map) {
        Map<String, Integer> all = new HashMap<>();
        Iterator<Tuple2<String, Integer>> records = map.records();
        while (records.hasNext()) {
            Tuple2<String, Integer> r = records.next();
            assertEquals(false, all.containsKey(r._1()), "each key once");
            all.put(r._1(), r._2());
        }
        assertEquals(map.size(), all.size());
        return all;
    }
}
