package io.sluice.testkit;

import io.sluice.rdd.internal.SparkContexts;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * One local SparkContext per test JVM, shared by every {@link StreamTester}: starting Spark costs seconds, a
 * streaming context on top of it costs nothing. Testers stop their streaming contexts, never this one.
 *
 * <p>Settings: {@code local[2,2]} (two threads; a failed task is retried once, as on a cluster), Sluice's
 * defaults (Kryo), no UI, bound to the loopback address, and {@code spark.streaming.clock} set to Spark's
 * manual clock so that a Spark Streaming run on the same context (a test comparing a job with the Spark
 * Streaming program it was ported from) is driven by hand too. If a SparkContext is already running, it is
 * adopted as it is.
 */
public final class SharedSpark {
    private static JavaSparkContext sc;

    private SharedSpark() {
    }

    public static synchronized JavaSparkContext context() {
        if (sc == null || sc.sc().isStopped()) {
            SparkConf conf = new SparkConf()
                    .setMaster("local[2,2]")
                    .setAppName("sluice-tests")
                    .set("spark.ui.enabled", "false")
                    .set("spark.default.parallelism", "2")
                    .set("spark.driver.host", "127.0.0.1")
                    .set("spark.driver.bindAddress", "127.0.0.1")
                    .set("spark.streaming.clock", "org.apache.spark.util.ManualClock");
            sc = SparkContexts.getOrCreate(conf);
            sc.setLogLevel("WARN");
        }
        return sc;
    }
}
