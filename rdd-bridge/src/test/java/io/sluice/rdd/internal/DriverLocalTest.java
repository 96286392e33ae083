package io.sluice.rdd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the driver lends reaches tasks in its JVM as the very object, and nothing once withdrawn. */
class DriverLocalTest {
    private static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = new JavaSparkContext(SparkContexts.withDefaults(new SparkConf().setMaster("local[2]")
                .setAppName("driver-local").set("spark.ui.enabled", "false")));
    }

    @AfterAll
    static void stop() {
        sc.stop();
    }

    /** Each task adds one to the lent counter, if it finds it; returns how many tasks found it. */
    private static int tasksThatFound(DriverLocal<AtomicInteger> local) {
        return sc.parallelize(List.of(1, 2, 3, 4, 5, 6), 6)
                .map(i -> local.get().map(AtomicInteger::incrementAndGet).isPresent() ? 1 : 0)
                .reduce(Integer::sum);
    }

    @Test
    void tasksInTheDriversJvmGetTheVeryObjectNotACopy() {
        AtomicInteger counter = new AtomicInteger();
        try (DriverLocal<AtomicInteger> local = DriverLocal.publish(sc.sc(), counter)) {
            assertEquals(6, tasksThatFound(local), "every task (all in the driver's JVM) found it");
            assertEquals(6, counter.get(), "the tasks changed the driver's object, not a deserialized copy");
            assertSame(counter, local.get().orElseThrow(), "the driver gets it too");
        }
    }

    @Test
    void aWithdrawnObjectIsAbsentAndTwoPublicationsAreApart() {
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        DriverLocal<AtomicInteger> one = DriverLocal.publish(sc.sc(), first);
        try (DriverLocal<AtomicInteger> two = DriverLocal.publish(sc.sc(), second)) {
            one.close();
            assertTrue(one.get().isEmpty(), "withdrawn on the driver");
            assertEquals(0, tasksThatFound(one), "and in every task");
            assertEquals(0, first.get());
            assertEquals(6, tasksThatFound(two), "the other publication is untouched");
            assertEquals(6, second.get());
            one.close(); // withdrawing twice is harmless
        }
    }
}
