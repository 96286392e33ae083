package io.sluice.dstream.state;

import static io.sluice.testkit.Collected.multisets;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.MapWithStateDStream;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.OutputOperationInfo;
import io.sluice.dstream.testing.OnEachStateBackend;
import io.sluice.rdd.Time;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import scala.Tuple2;

/** User functions that throw name the operator, key and batch; a retried state task never double-counts. */
class StateFailureTest extends OnEachStateBackend {
    /** Failed first attempts, counted in the (local-mode) JVM so a test can prove its retry happened. */
    static final AtomicInteger FAILED_ATTEMPTS = new AtomicInteger();

    private static final List<List<String>> WORDS = List.of(
            List.of("a", "b"),
            List.of("a", "b", "c", "d", "a"),
            List.of("c", "a"));

    private static String failureOf(BatchInfo info) {
        return info.outputOperationInfos().values().stream().map(OutputOperationInfo::failureReason)
                .filter(r -> r != null).findFirst().orElse(null);
    }

    @Test
    void mapWithStateFunctionThatThrowsNamesOperatorKeyAndBatch() {
        try (StreamTester t = new StreamTester()) {
            t.collect(t.input(List.of(List.of("ok"), List.of("ok", "bad"))).mapToPair(w -> new Tuple2<>(w, 1))
                    .mapWithState(StateSpec.function((String k, Optional<Integer> v, State<Integer> s) -> {
                        if (k.equals("bad")) {
                            throw new IllegalArgumentException("cannot count " + k);
                        }
                        return k;
                    })));
            List<BatchInfo> batches = t.runBatches(2);
            assertFalse(batches.get(0).failed());
            String reason = failureOf(batches.get(1));
            String time = String.valueOf(batches.get(1).batchTime().milliseconds());
            assertTrue(reason.contains("mapWithState at StateFailureTest.java:"), reason);
            assertTrue(reason.contains("key 'bad'"), reason);
            assertTrue(reason.contains("failed at batch " + time + " ms"), reason);
            assertTrue(reason.contains("cannot count bad"), reason);
        }
    }

    @Test
    void updateStateByKeyFunctionThatThrowsNamesOperatorKeyAndBatch() {
        try (StreamTester t = new StreamTester()) {
            t.collect(t.input(List.of(List.of("bad"))).mapToPair(w -> new Tuple2<>(w, 1))
                    .<Integer>updateStateByKey((values, state) -> {
                        throw new IllegalStateException("no state today");
                    }));
            String reason = failureOf(t.runBatches(1).get(0));
            assertTrue(reason.contains("updateStateByKey at StateFailureTest.java:"), reason);
            assertTrue(reason.contains("key 'bad'"), reason);
            assertTrue(reason.contains("no state today"), reason);
        }
    }

    @Test
    void retriedMapWithStateTaskSeesExactlyThePreviousState() {
        FAILED_ATTEMPTS.set(0);
        try (StreamTester t = new StreamTester().partitions(1)) {
            MapWithStateDStream<String, Integer, Integer, Tuple2<String, Integer>> counted = t.input(WORDS)
                    .mapToPair(w -> new Tuple2<>(w, 1))
                    .mapWithState(StateSpec.function((Time time, String k, Optional<Integer> v, State<Integer> s) -> {
                        int count = s.getOption().orElse(0) + v.get();
                        s.update(count);
                        // the second batch's first attempt dies after it has counted "a" and "b" once more
                        if (k.equals("c") && TaskContext.get().attemptNumber() == 0 && count == 1) {
                            FAILED_ATTEMPTS.incrementAndGet();
                            throw new IllegalStateException("executor lost");
                        }
                        return Optional.of(new Tuple2<>(k, count));
                    }).numPartitions(1));
            Collected<Tuple2<String, Integer>> out = t.collect(counted);
            Collected<Tuple2<String, Integer>> snapshots = t.collect(counted.stateSnapshots());
            List<BatchInfo> batches = t.runBatches(3);
            assertEquals(1, FAILED_ATTEMPTS.get(), "the first attempt of the state task failed once");
            assertTrue(batches.stream().noneMatch(BatchInfo::failed), "the retry succeeded");
            assertEquals(multisets(List.of(
                    List.of(t2("a", 1), t2("b", 1)),
                    List.of(t2("a", 2), t2("b", 2), t2("c", 1), t2("d", 1), t2("a", 3)),
                    List.of(t2("c", 2), t2("a", 4)))), out.unordered());
            assertEquals(multisets(List.of(
                    List.of(t2("a", 1), t2("b", 1)),
                    List.of(t2("a", 3), t2("b", 2), t2("c", 1), t2("d", 1)),
                    List.of(t2("a", 4), t2("b", 2), t2("c", 2), t2("d", 1)))), snapshots.unordered());
        }
    }

    @Test
    void retriedUpdateStateTaskSeesExactlyThePreviousState() {
        FAILED_ATTEMPTS.set(0);
        try (StreamTester t = new StreamTester().partitions(1)) {
            Collected<Tuple2<String, Integer>> out = t.collect(t.input(WORDS).mapToPair(w -> new Tuple2<>(w, w))
                    .<Integer>updateStateByKey((words, state) -> {
                        // keys with state come first, so "a" and "b" were updated when "c" (new) fails
                        if (words.contains("c") && !state.isPresent() && TaskContext.get().attemptNumber() == 0) {
                            FAILED_ATTEMPTS.incrementAndGet();
                            throw new IllegalStateException("executor lost");
                        }
                        return Optional.of(state.orElse(0) + words.size());
                    }, 1));
            List<BatchInfo> batches = t.runBatches(3);
            assertEquals(1, FAILED_ATTEMPTS.get(), "the first attempt of the state task failed once");
            assertTrue(batches.stream().noneMatch(BatchInfo::failed), "the retry succeeded");
            assertEquals(multisets(List.of(
                    List.of(t2("a", 1), t2("b", 1)),
                    List.of(t2("a", 3), t2("b", 2), t2("c", 1), t2("d", 1)),
                    List.of(t2("a", 4), t2("b", 2), t2("c", 2), t2("d", 1)))), out.unordered());
        }
    }

    private static Tuple2<String, Integer> t2(String k, int v) {
        return new Tuple2<>(k, v);
    }
}
