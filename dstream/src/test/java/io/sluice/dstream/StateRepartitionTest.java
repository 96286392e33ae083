package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.internal.state.StatefulOperator;
import io.sluice.dstream.testing.CompletedBatches;
import io.sluice.dstream.testing.OnEachStateBackend;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.CachedBlocks;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.Collected;
import io.sluice.testkit.ManualClock;
import io.sluice.testkit.SharedSpark;
import io.sluice.testkit.StreamTester;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.stream.LongStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import scala.Tuple2;

/**
 * Live re-partitioning of state: a stateful stream goes from 4 to 8 to 2 state partitions while it runs under a
 * steady load (keys coming and going, timeouts firing, removals), and every batch's output and state equal those
 * of a run that never re-partitioned, batch for batch. Also when the blocks the move reads were lost (the move
 * then reads the checkpoint files), and when a restart from a checkpoint taken with another partition count
 * restores into the new layout.
 */
class StateRepartitionTest extends OnEachStateBackend {
    private static final int BATCHES = 12;
    private static final long PER_BATCH = 40;
    /** Before batch 4 (0-based) the state goes to 8 partitions, before batch 8 to 2. */
    private static final Map<Integer, Integer> CHANGES = Map.of(4, 8, 8, 2);
    private static final List<Integer> LAYOUTS = List.of(4, 4, 4, 4, 8, 8, 8, 8, 2, 2, 2, 2);

    @TempDir
    Path dir;

    /** A few hot keys in every batch; the others each in one batch, then idle (they time out or are removed). */
    private static String key(long offset) {
        return offset % 3 == 0 ? "hot" + offset % 4 : "k" + (offset / 10) % 30;
    }

    private static List<List<Long>> offsets() {
        List<List<Long>> batches = new ArrayList<>();
        for (int b = 0; b < BATCHES; b++) {
            batches.add(LongStream.range(b * PER_BATCH, (b + 1) * PER_BATCH).boxed().toList());
        }
        return batches;
    }

    private static String count(String key, Optional<Integer> one, State<Integer> state) {
        if (state.isTimingOut()) {
            return key + ":timeout:" + state.get();
        }
        int total = state.getOption().orElse(0) + one.get();
        state.update(total);
        return key + ":" + total;
    }

    /** Counts; an idle key with an even count is removed. */
    private static Optional<Integer> total(List<Integer> ones, Optional<Integer> state) {
        int total = state.orElse(0) + ones.size();
        return ones.isEmpty() && total % 2 == 0 ? Optional.empty() : Optional.of(total);
    }

    /** A stateful stream, its output and its state after each batch, as a user sees them. */
    private record Job(DStreamLike<?, ?> stateful, DStream<String> output, DStream<String> state) {
    }

    /** mapWithState with a 2 s timeout: emits "key:count" and "key:timeout:count"; state checkpointed as asked. */
    private static Job mapWithState(DStream<Long> offsets, int partitions, Duration checkpointEvery) {
        MapWithStateDStream<String, Integer, Integer, String> counts = offsets.mapToPair(x -> new Tuple2<>(key(x), 1))
                .mapWithState(StateSpec.function(StateRepartitionTest::count).timeout(Duration.ofSeconds(2))
                        .numPartitions(partitions)).name("counts");
        if (checkpointEvery != null) {
            counts.checkpoint(checkpointEvery);
        }
        return new Job(counts, counts, counts.stateSnapshots().map(kv -> kv._1() + "=" + kv._2()));
    }

    private static Job updateStateByKey(DStream<Long> offsets, int partitions, Duration checkpointEvery) {
        PairDStream<String, Integer> totals = offsets.mapToPair(x -> new Tuple2<>(key(x), 1))
                .<Integer>updateStateByKey(StateRepartitionTest::total, partitions).name("totals");
        if (checkpointEvery != null) {
            totals.checkpoint(checkpointEvery);
        }
        DStream<String> state = totals.map(kv -> kv._1() + "=" + kv._2());
        return new Job(totals, state, state);
    }

    /** What a run showed, batch for batch: output and state (multisets) and the number of state partitions. */
    private record Seen(List<Map<String, Integer>> output, List<Map<String, Integer>> state, List<Integer> layouts) {
    }

    private interface JobShape {
        Job build(DStream<Long> offsets, int partitions, Duration checkpointEvery);
    }

    /** Runs {@code shape} over the offsets for {@link #BATCHES} batches, re-partitioning before batch b as asked. */
    private static Seen run(JobShape shape, Map<Integer, Integer> changes, Path checkpoint,
            BiFunction<StreamTester, Job, Runnable> beforeChange) {
        try (StreamTester t = new StreamTester()) {
            DStream<Long> offsets;
            if (checkpoint != null) {
                t.context().checkpoint(checkpoint.toString());
                offsets = OffsetSource.stream(t.context(), PER_BATCH);
            } else {
                offsets = t.input(offsets());
            }
            Job job = shape.build(offsets, 4, checkpoint == null ? null : StreamTester.INTERVAL);
            Collected<String> output = t.collect(job.output());
            Collected<String> state = t.collect(job.state());
            List<Integer> layouts = new CopyOnWriteArrayList<>();
            job.output().foreachRDD(rdd -> layouts.add(rdd.getNumPartitions()));
            for (int b = 0; b < BATCHES; b++) {
                if (changes.containsKey(b)) {
                    beforeChange.apply(t, job).run();
                    t.context().repartitionState(job.stateful(), changes.get(b));
                }
                t.runBatch();
            }
            return new Seen(output.unordered(), state.unordered(), layouts);
        }
    }

    private static void assertSameBatches(Seen expected, Seen actual) {
        assertEquals(expected.output(), actual.output(), "every batch's output");
        assertEquals(expected.state(), actual.state(), "the state after every batch");
        assertEquals(LAYOUTS, actual.layouts(), "state partitions per batch");
    }

    private static Runnable nothing(StreamTester t, Job job) {
        return () -> { };
    }

    @Test
    void mapWithStateMovesItsKeyGroupsFrom4To8To2PartitionsAndEveryBatchIsAsWithout() {
        Seen expected = run(StateRepartitionTest::mapWithState, Map.of(), null, StateRepartitionTest::nothing);
        assertEquals(List.of(4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4), expected.layouts());
        assertTrue(expected.output().stream().skip(8).anyMatch(b -> b.keySet().stream()
                .anyMatch(r -> r.contains(":timeout:"))), "keys time out in the batches after the second move");
        assertSameBatches(expected, run(StateRepartitionTest::mapWithState, CHANGES, null,
                StateRepartitionTest::nothing));
    }

    @Test
    void updateStateByKeyMovesItsKeyGroupsFrom4To8To2PartitionsAndEveryBatchIsAsWithout() {
        Seen expected = run(StateRepartitionTest::updateStateByKey, Map.of(), null, StateRepartitionTest::nothing);
        assertSameBatches(expected, run(StateRepartitionTest::updateStateByKey, CHANGES, null,
                StateRepartitionTest::nothing));
    }

    /**
     * The state is checkpointed every batch. Before the first move, the cached blocks of two of the four
     * partitions of the previous batch's state are dropped (as an executor's loss would); before the second,
     * all of them: the move takes the partitions still cached from memory and reads the others from the
     * checkpoint files.
     */
    @Test
    void aMoveWhoseBlocksWereLostReadsThemFromTheCheckpointFiles() {
        Seen expected = run(StateRepartitionTest::mapWithState, Map.of(), null, StateRepartitionTest::nothing);
        List<Integer> dropped = new ArrayList<>();
        Seen moved = run(StateRepartitionTest::mapWithState, CHANGES, dir.resolve("checkpoint"), (t, job) -> () -> {
            StatefulOperator<?, ?, ?, ?, ?> op = (StatefulOperator<?, ?, ?, ?, ?>) job.stateful().operator();
            Time last = t.completedBatches().get(t.completedBatches().size() - 1).batchTime();
            JavaRDD<?> state = op.stateRecords(last).orElseThrow();
            int partitions = state.getNumPartitions();
            for (int p = partitions == 4 ? 1 : 0; p < (partitions == 4 ? 3 : partitions); p++) {
                CachedBlocks.drop(state.rdd(), p);
                assertTrue(CachedBlocks.firstRecord(state.id(), p).isEmpty(), "partition " + p + " dropped");
                dropped.add(p);
            }
        });
        assertEquals(List.of(1, 2, 0, 1, 2, 3, 4, 5, 6, 7), dropped);
        assertSameBatches(expected, moved);
    }

    /** What the deployments of one checkpoint directory showed, batch for batch. */
    private static final class Deployments {
        final Collected<String> output = new Collected<>();
        final Collected<String> state = new Collected<>();
        final List<Integer> layouts = new CopyOnWriteArrayList<>();
        long now;
    }

    /** One deployment: getOrCreate with {@code partitions} state partitions, then {@code batches} batches. */
    private void deploy(Deployments runs, int partitions, int batches) throws InterruptedException {
        ManualClock clock = new ManualClock(runs.now);
        StreamingContext context = StreamingContext.getOrCreate(dir.resolve("checkpoint").toString(), () -> {
            StreamingContext c = StreamingContext.create(SharedSpark.context(), StreamTester.INTERVAL, clock);
            Job job = mapWithState(OffsetSource.stream(c, PER_BATCH), partitions, StreamTester.INTERVAL);
            job.output().foreachRDD((rdd, time) -> {
                runs.output.add(time, rdd.collect());
                runs.layouts.add(rdd.getNumPartitions());
            });
            job.state().foreachRDD((rdd, time) -> runs.state.add(time, rdd.collect()));
            return c;
        });
        CompletedBatches completed = new CompletedBatches();
        context.addStreamingListener(completed);
        try {
            context.start();
            assertEquals(runs.now == 0 ? java.util.Optional.empty() : java.util.Optional.of(new Time(runs.now)),
                    context.recoveredBatch());
            for (int b = 0; b < batches; b++) {
                runs.now += StreamTester.INTERVAL.toMillis();
                completed.run(clock, runs.now);
            }
        } finally {
            context.stop(false, false);
        }
    }

    /**
     * Three deployments over one checkpoint directory, each with another {@code numPartitions} (4, 8, 2), four
     * batches each: each restart restores the state saved in the previous layout and its first batch moves it to
     * the new one.
     */
    @Test
    void aRestartWithAnotherNumberOfPartitionsRestoresTheCheckpointIntoTheNewLayout() throws Exception {
        Seen expected = run(StateRepartitionTest::mapWithState, Map.of(), null, StateRepartitionTest::nothing);
        Deployments runs = new Deployments();
        for (int partitions : new int[] {4, 8, 2}) {
            deploy(runs, partitions, 4);
        }
        assertSameBatches(expected, new Seen(runs.output.unordered(), runs.state.unordered(), runs.layouts));
    }

    /** More partitions than the checkpoint's key groups (max(128, partitions)) cannot hold its key groups whole. */
    @Test
    void aRestartWithMorePartitionsThanTheCheckpointsKeyGroupsFailsSayingSo() throws Exception {
        Deployments runs = new Deployments();
        deploy(runs, 4, 1);
        Throwable e = assertThrows(RuntimeException.class, () -> deploy(runs, 200, 1));
        StringBuilder messages = new StringBuilder();
        for (Throwable c = e; c != null; c = c.getCause()) {
            messages.append(c.getMessage()).append('\n');
        }
        assertTrue(messages.toString().contains("is split in 128 key groups, but the operator now in 200")
                && messages.toString().contains("choose at most 128 partitions"), messages.toString());
    }

    @Test
    void repartitionStateNeedsARunningStatefulStreamAndACountWithinTheKeyGroups() {
        try (StreamTester t = new StreamTester()) {
            DStream<Long> offsets = t.input(offsets());
            Job job = mapWithState(offsets, 4, null);
            t.collect(job.output());
            IllegalStateException early = assertThrows(IllegalStateException.class,
                    () -> t.context().repartitionState(job.stateful(), 8));
            assertTrue(early.getMessage().contains("applies to a running context"), early.getMessage());
            t.runBatch();
            IllegalArgumentException notStateful = assertThrows(IllegalArgumentException.class,
                    () -> t.context().repartitionState(offsets, 8));
            assertTrue(notStateful.getMessage().contains("mapWithState or updateStateByKey"), notStateful.getMessage());
            IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
                    () -> t.context().repartitionState(job.stateful(), 129));
            assertTrue(tooMany.getMessage().contains("must be in [1, 128]"), tooMany.getMessage());
        }
    }
}
