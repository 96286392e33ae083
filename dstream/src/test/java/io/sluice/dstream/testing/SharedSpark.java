package io.sluice.dstream.testing;

import io.sluice.rdd.internal.SparkContexts;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * One SparkContext per test JVM, shared by every test: starting Spark costs seconds, a streaming context
 * on top of it costs nothing. Tests stop their streaming contexts with {@code stop(false)}.
 */
public final class SharedSpark {
    private static JavaSparkContext sc;

    private SharedSpark() {
    }

    public static synchronized JavaSparkContext context() {
        if (sc == null || sc.sc().isStopped()) {
            SparkConf conf = new SparkConf()
                    // two threads; a failed task is retried once, as on a cluster (the state retry tests need it)
                    .setMaster("local[2,2]")
                    .setAppName("sluice-tests")
                    .set("spark.ui.enabled", "false")
                    .set("spark.default.parallelism", "2")
                    .set("spark.driver.host", "127.0.0.1")
                    .set("spark.driver.bindAddress", "127.0.0.1")
                    // Lets the Spark Streaming reference runs in differential tests use a manual clock too.
                    .set("spark.streaming.clock", "org.apache.spark.util.ManualClock");
            sc = SparkContexts.getOrCreate(conf);
            sc.setLogLevel("WARN");
        }
        return sc;
    }
}
