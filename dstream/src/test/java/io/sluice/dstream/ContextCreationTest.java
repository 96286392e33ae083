package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.sluice.testkit.SharedSpark;
import io.sluice.rdd.internal.SparkContexts;
import java.time.Duration;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/**
 * {@code StreamingContext.create(sparkConf, interval)} and {@code builder().conf(sparkConf)}, the one-line
 * equivalents of {@code new JavaStreamingContext(sparkConf, Durations.seconds(1))}. Only one SparkContext may
 * exist per JVM (the shared test one), so the settings a new one would get are checked on the builder.
 */
class ContextCreationTest {

    @Test
    void builderTakesEverySettingOfASparkConf() {
        SparkConf user = new SparkConf(false).setMaster("local[3]").setAppName("words")
                .set("spark.executor.memory", "2g").set("sluice.concurrentJobs", "2");
        SparkConf conf = StreamingContext.builder().conf(user).sparkConf();
        assertEquals("local[3]", conf.get("spark.master"));
        assertEquals("words", conf.get("spark.app.name"));
        assertEquals("2g", conf.get("spark.executor.memory"));
        assertEquals("2", conf.get("sluice.concurrentJobs"));
    }

    @Test
    void masterDefaultsToLocalWhenTheSparkConfSetsNone() {
        SparkConf conf = StreamingContext.builder().conf(new SparkConf(false).setAppName("words")).sparkConf();
        assertFalse(conf.contains("spark.master"), "the builder leaves the master to the defaults");
        assertEquals("local[*]", SparkContexts.withDefaults(conf).get("spark.master"));
    }

    @Test
    void aLaterMasterOrAppNameWinsOverTheSparkConfs() {
        SparkConf user = new SparkConf(false).setMaster("local[3]").setAppName("words");
        SparkConf later = StreamingContext.builder().conf(user).master("local[1]").appName("counts").sparkConf();
        assertEquals("local[1]", later.get("spark.master"));
        assertEquals("counts", later.get("spark.app.name"));
        SparkConf earlier = StreamingContext.builder().master("local[1]").appName("counts").conf(user).sparkConf();
        assertEquals("local[3]", earlier.get("spark.master"));
        assertEquals("words", earlier.get("spark.app.name"));
    }

    @Test
    void createFromSparkConfAdoptsTheRunningSparkContextWithTheGivenInterval() {
        JavaSparkContext shared = SharedSpark.context();
        StreamingContext ssc = StreamingContext.create(new SparkConf(false).setAppName("words"), Duration.ofSeconds(2));
        try {
            assertSame(shared.sc(), ssc.sparkContext().sc(), "a running SparkContext is adopted, not replaced");
            assertEquals(Duration.ofSeconds(2), ssc.batchInterval());
        } finally {
            ssc.stop(false, false);
        }
        assertFalse(shared.sc().isStopped(), "the adopted SparkContext outlives the streaming context");
    }
}
