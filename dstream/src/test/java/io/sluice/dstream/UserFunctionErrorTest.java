package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.StreamTester;
import java.util.List;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/** A user function that throws inside a task: the failed batch names that function's operator and the batch. */
class UserFunctionErrorTest {
    @Test
    void aThrowingMapIsNamedWithItsBatch() {
        try (StreamTester t = new StreamTester()) {
            t.input(List.of(List.of(1, 2), List.of(3, 0))).map(x -> 6 / x).foreachRDD(rdd -> {
                rdd.collect();
            });
            t.runBatches(1);
            String reason = String.join("\n", t.runFailingBatch());
            assertTrue(reason.contains("map at UserFunctionErrorTest.java:"), reason);
            assertTrue(reason.contains("failed at batch 2000 ms"), reason);
            assertTrue(reason.contains("ArithmeticException"), reason);
        }
    }

    @Test
    void aThrowingReduceFunctionIsNamedToo() {
        try (StreamTester t = new StreamTester()) {
            t.input(List.of(List.of("a", "b", "a"))).mapToPair(w -> new Tuple2<>(w, 1))
                    .reduceByKey((a, b) -> {
                        throw new IllegalStateException("no sums today");
                    })
                    .foreachRDD(rdd -> {
                        rdd.collect();
                    });
            String reason = String.join("\n", t.runFailingBatch());
            assertTrue(reason.contains("reduceByKey at UserFunctionErrorTest.java:"), reason);
            assertTrue(reason.contains("failed at batch 1000 ms"), reason);
        }
    }
}
