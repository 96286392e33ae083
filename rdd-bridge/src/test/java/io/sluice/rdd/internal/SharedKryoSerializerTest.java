package io.sluice.rdd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Tuple2;
import scala.reflect.ClassTag$;

/** Copies of the shuffle serializer, as tasks receive them, share one Kryo serializer (and its pool) per JVM. */
class SharedKryoSerializerTest {
    private static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = new JavaSparkContext(SparkContexts.withDefaults(new SparkConf().setMaster("local[1]")
                .setAppName("shared-kryo").set("spark.ui.enabled", "false")));
    }

    @AfterAll
    static void stop() {
        sc.stop();
    }

    @Test
    void copiesShippedToTasksShareOneSerializerAndRoundTripRecords() throws Exception {
        for (Serializer shipped : List.of(SharedKryoSerializer.ofContext(), SharedKryoSerializer.untracked())) {
            SharedKryoSerializer first = (SharedKryoSerializer) javaCopy(shipped);
            SharedKryoSerializer second = (SharedKryoSerializer) javaCopy(shipped);
            assertNotSame(first, second);
            assertSame(first.delegate(), second.delegate(), "one Kryo serializer per JVM, not one per task");

            Tuple2<String, List<Integer>> record = new Tuple2<>("w17", new java.util.ArrayList<>(List.of(1, 2, 3)));
            SerializerInstance writer = first.newInstance();
            SerializerInstance reader = second.newInstance();
            Object back = reader.deserialize(writer.serialize(record, ClassTag$.MODULE$.AnyRef()),
                    ClassTag$.MODULE$.AnyRef());
            assertEquals(record, back);
        }
        assertNotSame(((SharedKryoSerializer) SharedKryoSerializer.ofContext()).delegate(),
                ((SharedKryoSerializer) SharedKryoSerializer.untracked()).delegate());
    }

    private static Object javaCopy(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }
}
