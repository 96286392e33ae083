package io.sluice.rdd.internal;

import io.sluice.rdd.SluiceKryoRegistrator;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkContext$;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Creates or adopts the SparkContext a streaming application runs on, with Sluice's defaults.
 *
 * <p>Defaults are only filled in where the user (or spark-submit) set nothing: Kryo as the serializer with
 * Sluice's classes registered, and {@code local[*]} as the master when none was given.
 */
public final class SparkContexts {
    public static final String DEFAULT_MASTER = "local[*]";
    static final String KRYO = "org.apache.spark.serializer.KryoSerializer";

    private SparkContexts() {
    }

    /** Returns a copy of {@code conf} with Sluice's defaults filled in where the user set nothing. */
    public static SparkConf withDefaults(SparkConf conf) {
        SparkConf result = conf.clone();
        result.setIfMissing("spark.master", DEFAULT_MASTER);
        result.setIfMissing("spark.serializer", KRYO);
        if (KRYO.equals(result.get("spark.serializer"))) {
            String own = SluiceKryoRegistrator.class.getName();
            String registrators = result.get("spark.kryo.registrator", "");
            if (!registrators.contains(own)) {
                result.set("spark.kryo.registrator", registrators.isEmpty() ? own : registrators + "," + own);
            }
        }
        return result;
    }

    /** Whether this JVM has a running SparkContext, which {@link #getOrCreate} would adopt. */
    public static boolean isRunning() {
        return SparkContext$.MODULE$.getActive().isDefined(); // package-private in Scala, public in bytecode
    }

    /** The running SparkContext if there is one (its settings win), else a new one with Sluice's defaults. */
    public static JavaSparkContext getOrCreate(SparkConf conf) {
        return JavaSparkContext.fromSparkContext(SparkContext.getOrCreate(withDefaults(conf)));
    }
}
