package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Collected;
import io.sluice.testkit.SharedSpark;
import io.sluice.testkit.StreamTester;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** start() checks the whole graph once and says what to change; the context stays startable after a refusal. */
class StartValidationTest {
    private static final List<List<Integer>> ONE = List.of(List.of(1, 2));

    /** Deliberately not Serializable. */
    static final class ConnectionPool {
        int size() {
            return 1;
        }
    }

    private static String refusal(StreamTester t) {
        return assertThrows(IllegalStateException.class, () -> t.context().start()).getMessage();
    }

    private static void assertContains(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), () -> "expected '" + part + "' in: " + message);
        }
    }

    @Test
    void autoscalingNeedsAClusterManagerAndSparksOwnDynamicAllocationOff() {
        try (StreamTester t = new StreamTester()) {
            t.input(ONE).print();
            t.context().conf(Settings.DYNAMIC_ALLOCATION_ENABLED, "true");
            t.context().conf("spark.dynamicAllocation.enabled", "true");
            assertContains(refusal(t), "spark.dynamicAllocation.enabled=false");
            t.context().conf("spark.dynamicAllocation.enabled", "false");
            assertContains(refusal(t), Settings.DYNAMIC_ALLOCATION_ENABLED + " needs a cluster manager",
                    "the master is local");
            assertEquals(StreamingContextState.INITIALIZED, t.context().getState());
        }
    }

    @Test
    void noOutputOperation() {
        try (StreamTester t = new StreamTester()) {
            t.input(ONE).map(x -> x + 1);
            assertContains(refusal(t), "no output operation", "print(), foreachRDD(...), saveAsTextFiles(...)");
            assertEquals(StreamingContextState.INITIALIZED, t.context().getState());
        }
    }

    @Test
    void checkpointIntervalNotAMultipleOfTheSlide() {
        try (StreamTester t = new StreamTester()) {
            t.input(ONE).map(x -> x + 1).checkpoint(Duration.ofMillis(1500)).print();
            assertContains(refusal(t), "map at StartValidationTest.java:", "checkpoint interval 1500 ms",
                    "not a multiple of its slide 1 s", "a multiple of 1 s");
        }
    }

    @Test
    void batchIntervalMustBeWholePositiveMilliseconds() {
        var sc = SharedSpark.context();
        assertContains(assertThrows(IllegalArgumentException.class,
                () -> StreamingContext.create(sc, Duration.ofNanos(1_500_000))).getMessage(),
                "batch interval must be a positive whole number of milliseconds");
        assertThrows(IllegalArgumentException.class, () -> StreamingContext.create(sc, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> StreamingContext.create(sc, Duration.ofSeconds(-1)));
        assertContains(assertThrows(IllegalStateException.class, () -> StreamingContext.builder().build())
                .getMessage(), "batchInterval(");
    }

    @Test
    void nonSerializableFunctionNamesTheOperatorAndTheClass() {
        ConnectionPool pool = new ConnectionPool();
        try (StreamTester t = new StreamTester()) {
            t.input(ONE).filter(x -> x > 0).map(x -> x + pool.size()).print();
            String message = refusal(t);
            assertContains(message, "map at StartValidationTest.java:", ConnectionPool.class.getName(),
                    "not serializable", "make captured objects Serializable");
            assertTrue(!message.contains("filter at"), message);
        }
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        ConnectionPool pool = new ConnectionPool();
        try (StreamTester t = new StreamTester()) {
            t.input(ONE).map(x -> x + pool.size()).checkpoint(Duration.ofMillis(2500));
            assertContains(refusal(t), "no output operation", "ConnectionPool", "checkpoint interval 2500 ms");
        }
    }

    @Test
    void aContextRefusedAtStartCanBeFixedAndStarted() {
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> s = t.input(ONE);
            refusal(t);
            Collected<Integer> out = t.collect(s);
            t.runBatches(1);
            out.assertBatches(List.of(List.of(1, 2)));
        }
    }

    @Test
    void operatorsAndOutputsCannotBeAddedAfterStart() {
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> s = t.input(ONE);
            t.collect(s);
            t.runBatches(1);
            assertContains(assertThrows(IllegalStateException.class, () -> s.map(x -> x)).getMessage(),
                    "map at StartValidationTest.java:", "after the StreamingContext has started",
                    "before start()");
            assertContains(assertThrows(IllegalStateException.class, s::print).getMessage(), "print at ");
            assertThrows(IllegalStateException.class, () -> s.cache());
            assertThrows(IllegalStateException.class, () -> t.context().remember(Duration.ofSeconds(5)));
            assertThrows(IllegalStateException.class, () -> t.context().queueStream(new java.util.ArrayDeque<>()));
            t.runBatches(1); // and the running context is unaffected
        }
    }

    @Test
    void aDeepGraphOfSharedStreamsStartsAtOnce() {
        try (StreamTester t = new StreamTester()) {
            DStream<Integer> s = t.input(ONE);
            for (int i = 0; i < 27; i++) { // 2^27 paths from the output to the input
                s = s.union(s.map(x -> x));
            }
            s.foreachRDD(rdd -> {
            });
            // Validation, remember durations and building the operators visit each stream once (a walk of the
            // paths, e.g. hashing a stream's description with its parents', takes a minute or more).
            long started = System.nanoTime();
            t.context().start();
            long seconds = (System.nanoTime() - started) / 1_000_000_000L;
            assertTrue(seconds < 10, "start took " + seconds + " s");
            assertEquals(StreamingContextState.ACTIVE, t.context().getState());
        }
    }

    @Test
    void onlyOneActiveContextPerJvm() {
        try (StreamTester first = new StreamTester(); StreamTester second = new StreamTester()) {
            first.collect(first.input(ONE));
            Collected<Integer> out = second.collect(second.input(ONE));
            first.runBatches(1);
            assertContains(assertThrows(IllegalStateException.class, () -> second.context().start()).getMessage(),
                    "another StreamingContext is already active", "stop it before starting a new one");
            first.close();
            second.runBatches(1);
            out.assertBatches(List.of(List.of(1, 2)));
        }
    }

    @Test
    void aStoppedContextCannotStartAgain() {
        try (StreamTester t = new StreamTester()) {
            t.collect(t.input(ONE));
            t.runBatches(1);
            t.close();
            assertContains(refusal(t), "STOPPED", "build a new one");
        }
    }
}
