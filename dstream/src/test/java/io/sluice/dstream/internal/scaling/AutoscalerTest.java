package io.sluice.dstream.internal.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The autoscaler against an in-memory cluster and in-memory state: what it asks the cluster manager for, where it
 * places state, and when it kills. Batches of 1 s; decisions every 5 s; executors in [1, 3].
 */
class AutoscalerTest {
    private final List<ExecutorLocation> executors = new ArrayList<>();
    private final List<String> calls = new ArrayList<>();
    private final List<List<String>> placements = new ArrayList<>();
    private final List<Integer> repartitions = new ArrayList<>();
    private final Set<String> holdingState = new HashSet<>();
    private final Set<String> receivers = new HashSet<>();
    private long now;
    private long nextBatch = 1000;

    private final ExecutorAllocation cluster = new ExecutorAllocation() {
        @Override
        public List<ExecutorLocation> executors() {
            return List.copyOf(executors);
        }

        @Override
        public boolean requestTotal(int total) {
            calls.add("request " + total);
            return true;
        }

        @Override
        public boolean kill(String executorId) {
            calls.add("kill " + executorId);
            return true;
        }
    };

    private final StatefulOperators state = new StatefulOperators() {
        @Override
        public void placeOn(List<ExecutorLocation> on) {
            placements.add(on.stream().map(ExecutorLocation::executorId).toList());
        }

        @Override
        public boolean stateOn(ExecutorLocation executor, Time time) {
            return holdingState.contains(executor.executorId());
        }

        @Override
        public void repartition(int partitions) {
            repartitions.add(partitions);
        }
    };

    /** Receivers by executor; a move takes them off at once and they start on {@code landsOn}'s executor. */
    private final Receivers receiverTracker = new Receivers() {
        @Override
        public int receivers() {
            return 0;
        }

        @Override
        public Set<String> receiverExecutors() {
            return Set.copyOf(receivers);
        }

        @Override
        public boolean receiversMoving() {
            return moving;
        }

        @Override
        public int moveReceiversOff(String executorId, List<ExecutorLocation> to) {
            calls.add("move receivers off " + executorId + " to "
                    + to.stream().map(ExecutorLocation::executorId).toList());
            moving = receivers.remove(executorId);
            return moving ? 1 : 0;
        }
    };
    private boolean moving;

    private Autoscaler autoscaler(boolean repartition, Integer start) {
        AutoscalingSettings settings = new AutoscalingSettings(Duration.ofSeconds(5), 0.9, 0.3, 1, 3, repartition, 2);
        return new Autoscaler(settings, cluster, state, () -> now, 1000, receiverTracker, start);
    }

    /** The moved receiver registers on {@code executor}. */
    private void receiverStartsOn(String executor) {
        receivers.add(executor);
        moving = false;
    }

    private void register(String... ids) {
        for (String id : ids) {
            executors.add(new ExecutorLocation("127.0.0.1", id));
        }
    }

    private void remove(String id) {
        executors.remove(new ExecutorLocation("127.0.0.1", id));
    }

    /** The next batch, started on time and processed in {@code processingMillis}. */
    private void batch(StreamingListener autoscaler, long processingMillis) {
        long start = Math.max(nextBatch, now);
        now = start + processingMillis;
        autoscaler.onBatchCompleted(new StreamingListener.BatchCompleted(new BatchInfo(new Time(nextBatch), 10, 0,
                nextBatch, start, now, Map.of(), Map.of())));
        nextBatch += 1000;
    }

    private void batches(StreamingListener autoscaler, int n, long processingMillis) {
        for (int i = 0; i < n; i++) {
            batch(autoscaler, processingMillis);
        }
    }

    @Test
    void growsUnderLoadSpreadsStateAndShrinksWhenTheLoadDrops() {
        register("1");
        Autoscaler a = autoscaler(true, null);
        assertEquals(List.of("request 1"), calls, "the start size: the minimum");
        batches(a, 6, 950);
        assertEquals(List.of("request 1", "request 2"), calls);
        assertEquals(List.of(List.of("1")), placements);
        batches(a, 12, 950);
        assertEquals(List.of("request 1", "request 2"), calls, "no decision while the request is pending");
        register("2");
        batch(a, 500);
        assertEquals(List.of(List.of("1"), List.of("1", "2")), placements, "state spread over the new executor");
        assertEquals(List.of(2, 4), repartitions, "two partitions per executor");
        batches(a, 8, 500);
        assertEquals(2, calls.size(), "between the ratios: no change");
        batches(a, 6, 100);
        assertEquals(List.of("1"), placements.get(placements.size() - 1), "state leaves executor 2 first");
        assertEquals(List.of(2, 4, 2), repartitions);
        assertEquals("kill 2", calls.get(calls.size() - 1), "killed after a batch placed state elsewhere");
        int killed = calls.size();
        remove("2");
        batches(a, 10, 100);
        assertEquals(killed, calls.size(), "at the minimum");
    }

    @Test
    void bringsAClusterThatGrantedMoreDownToTheStartSizeMovingStateFirst() {
        register("1", "2", "3");
        holdingState.add("3");
        Autoscaler a = autoscaler(false, 2);
        assertEquals(List.of("request 2"), calls, "spark.executor.instances within the bounds");
        batch(a, 100);
        assertEquals(List.of(List.of("1", "2")), placements, "the newest executor is removed");
        batch(a, 100);
        assertEquals(List.of("request 2"), calls, "executor 3 still holds state: not killed yet");
        holdingState.clear();
        batch(a, 100);
        assertEquals(List.of("request 2", "kill 3"), calls);
        remove("3");
        batch(a, 100);
        assertEquals(List.of("1", "2"), placements.get(placements.size() - 1));
    }

    @Test
    void killsAfterAFewBatchesEvenIfStateStaysOnTheExecutor() {
        register("1", "2");
        holdingState.add("2");
        Autoscaler a = autoscaler(false, 1);
        batches(a, Autoscaler.DRAIN_BATCHES, 100);
        assertEquals(List.of("request 1"), calls, "the batch that began the removal does not count");
        batch(a, 100);
        assertEquals(List.of("request 1", "kill 2"), calls, "lineage recomputes what was left");
    }

    @Test
    void prefersRemovingAnExecutorRunningNoReceiver() {
        register("1", "2");
        receivers.add("2");
        Autoscaler a = autoscaler(false, 1);
        batches(a, 2, 100);
        assertEquals(List.of("request 1", "kill 1"), calls, "executor 1 goes instead of the newer 2");
    }

    @Test
    void movesTheReceiversOffBeforeRemovingAnExecutorWhenEveryExecutorRunsOne() {
        register("1", "2");
        receivers.addAll(Set.of("1", "2"));
        Autoscaler a = autoscaler(false, 1);
        batch(a, 100);
        assertEquals(List.of("request 1", "move receivers off 2 to [1]"), calls, "the newest goes");
        assertEquals(List.of(List.of("1")), placements, "its state too");
        batches(a, 3, 100);
        assertEquals(2, calls.size(), "not killed while its receiver has not started elsewhere");
        receiverStartsOn("2");
        batch(a, 100);
        assertEquals("move receivers off 2 to [1]", calls.get(calls.size() - 1),
                "launched on the leaving executor again: moved again");
        receiverStartsOn("1");
        batch(a, 100);
        assertEquals(List.of("request 1", "move receivers off 2 to [1]", "move receivers off 2 to [1]", "kill 2"),
                calls, "killed once the receiver runs elsewhere");
    }

    @Test
    void keepsTheExecutorWhenItsReceiverKeepsStartingThere() {
        register("1", "2");
        receivers.addAll(Set.of("1", "2"));
        Autoscaler a = autoscaler(false, 1);
        for (int i = 0; i < Autoscaler.MOVE_BATCHES + 1; i++) {
            batch(a, 100);
            receiverStartsOn("2");
        }
        assertEquals(Autoscaler.MOVE_BATCHES, calls.stream().filter(c -> c.startsWith("move")).count(),
                "moved at the start and after each batch but the last");
        assertEquals(List.of("1", "2"), placements.get(placements.size() - 1), "the state comes back to it");
        assertEquals(0, calls.stream().filter(c -> c.startsWith("kill")).count(), "never killed with a receiver");
    }
}
