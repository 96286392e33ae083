package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.esotericsoftware.kryo.Kryo;
import io.sluice.testkit.SharedSpark;
import io.sluice.rdd.KeyGroupRange;
import io.sluice.rdd.SluiceKryoRegistrator;
import io.sluice.rdd.internal.SparkContexts;
import io.sluice.rdd.Time;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import scala.reflect.ClassTag$;

/**
 * Kryo is the default for contexts Sluice creates, with Sluice's classes registered through the
 * KryoRegistrations services; users add classes or switch back. Only one SparkContext may exist per JVM (the
 * shared test one), so the defaults are checked on {@link SparkContexts#withDefaults} and on serializers.
 */
class KryoDefaultsTest {
    private static final String KRYO = KryoSerializer.class.getName();
    private static final String JAVA = "org.apache.spark.serializer.JavaSerializer";

    /** A user's record type. */
    public static final class UserRecord {
        int value;
    }

    @Test
    void defaultsAreKryoWithSluicesRegistratorAndLocalMaster() {
        SparkConf conf = SparkContexts.withDefaults(new SparkConf(false));
        assertEquals(KRYO, conf.get("spark.serializer"));
        assertEquals(SluiceKryoRegistrator.class.getName(), conf.get("spark.kryo.registrator"));
        assertEquals("local[*]", conf.get("spark.master"));
        assertEquals(KRYO, SharedSpark.context().getConf().get("spark.serializer"), "the test context too");
    }

    @Test
    void userSettingsAreKeptAndExtended() {
        SparkConf conf = SparkContexts.withDefaults(new SparkConf(false).setMaster("local[3]")
                .set("spark.kryo.registrator", "com.example.TheirRegistrator")
                .set("spark.kryo.classesToRegister", UserRecord.class.getName()));
        assertEquals("local[3]", conf.get("spark.master"));
        assertEquals("com.example.TheirRegistrator," + SluiceKryoRegistrator.class.getName(),
                conf.get("spark.kryo.registrator"));
        assertEquals(UserRecord.class.getName(), conf.get("spark.kryo.classesToRegister"));
    }

    @Test
    void switchingBackToJavaSerializationAddsNoRegistrator() {
        SparkConf conf = SparkContexts.withDefaults(new SparkConf(false).set("spark.serializer", JAVA));
        assertEquals(JAVA, conf.get("spark.serializer"));
        assertFalse(conf.contains("spark.kryo.registrator"));
    }

    @Test
    void sluiceAndUserClassesAreRegisteredAndRoundTrip() {
        SparkConf conf = SparkContexts.withDefaults(new SparkConf(false)
                .set("spark.kryo.classesToRegister", UserRecord.class.getName()));
        KryoSerializer serializer = new KryoSerializer(conf);
        Kryo kryo = serializer.newKryo();
        assertNotNull(kryo.getClassResolver().getRegistration(Time.class), "Time is registered by its module");
        assertNotNull(kryo.getClassResolver().getRegistration(KeyGroupRange.class));
        assertNotNull(kryo.getClassResolver().getRegistration(UserRecord.class), "the user's class too");
        Kryo plain = new KryoSerializer(new SparkConf(false)).newKryo();
        assertNull(plain.getClassResolver().getRegistration(Time.class), "without the registrator it is not");

        SerializerInstance instance = serializer.newInstance();
        Time time = new Time(123_456L);
        ByteBuffer bytes = instance.serialize(time, ClassTag$.MODULE$.apply(Time.class));
        assertEquals(time, instance.deserialize(bytes, ClassTag$.MODULE$.apply(Time.class)));
        KeyGroupRange range = new KeyGroupRange(3, 9);
        assertEquals(range, instance.deserialize(instance.serialize(range, ClassTag$.MODULE$.apply(KeyGroupRange.class)),
                ClassTag$.MODULE$.apply(KeyGroupRange.class)));
    }

    @Test
    void getOrCreateAdoptsTheRunningSparkContext() {
        var shared = SharedSpark.context();
        assertSame(shared.sc(), SparkContexts.getOrCreate(new SparkConf().setAppName("other").setMaster("local[1]")).sc());
        StreamingContext built = StreamingContext.builder().appName("adopting").batchInterval(Duration.ofSeconds(1))
                .build();
        assertSame(shared.sc(), built.sparkContext().sc());
        assertFalse(built.ownsSparkContext(), "it adopted the running SparkContext");
        assertEquals(KRYO, built.sparkContext().getConf().get("spark.serializer"));
        built.stop(false); // never started: nothing to stop, and the shared SparkContext stays up
        assertFalse(shared.sc().isStopped());
    }
}
