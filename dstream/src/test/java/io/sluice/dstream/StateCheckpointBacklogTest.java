package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.testing.OnEachStateBackend;
import io.sluice.rdd.Time;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.ManualClock;
import io.sluice.testkit.SharedSpark;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import scala.Tuple2;

/**
 * A job whose batches are generated far ahead of processing (as when it is behind) checkpoints its state every
 * batch: each state checkpoint is planned when its batch is generated, on the newest one complete then, so it
 * builds on files that the checkpoints written since no longer reference. Those files must stay: the chaos run
 * found every progress checkpoint unusable after such a stretch ("its data file ... is missing"), and the
 * restarted driver could not start.
 */
class StateCheckpointBacklogTest extends OnEachStateBackend {
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final int AHEAD = 12; // batches generated ahead: more than the 10 checkpoints the store keeps
    private static final int PER_BATCH = 10;
    private static final int KEYS = 7;

    @TempDir
    Path dir;

    private final Map<Long, Map<Long, Long>> states = new ConcurrentHashMap<>();

    private StreamingContext context(ManualClock clock) {
        return StreamingContext.getOrCreate(dir.resolve("checkpoint").toString(), restoring -> {
            StreamingContext c = StreamingContext.create(SharedSpark.context(), INTERVAL, clock);
            MapWithStateDStream<Long, Long, Long, Long> counts = OffsetSource.stream(c, PER_BATCH)
                    .mapToPair(offset -> new Tuple2<>(offset % KEYS, 1L))
                    .mapWithState(StateSpec.function(StateCheckpointBacklogTest::count));
            counts.checkpoint(INTERVAL); // a state checkpoint every batch
            counts.stateSnapshots().foreachRDD((rdd, time) -> {
                states.put(time.milliseconds(), new TreeMap<>(rdd.collectAsMap()));
            });
            return c;
        });
    }

    private static Long count(Long key, org.apache.spark.api.java.Optional<Long> one, State<Long> state) {
        long n = (state.exists() ? state.get() : 0L) + one.orElse(0L);
        state.update(n);
        return n;
    }

    /** Each key's count after batch {@code batches}: the offsets 0 .. batches * PER_BATCH - 1, by offset % KEYS. */
    private static Map<Long, Long> expected(int batches) {
        Map<Long, Long> counts = new TreeMap<>();
        for (long offset = 0; offset < (long) batches * PER_BATCH; offset++) {
            counts.merge(offset % KEYS, 1L, Long::sum);
        }
        return counts;
    }

    @Test
    void aRestartAfterALongBacklogRecoversTheNewestCheckpoint() throws Exception {
        int batches = 30;
        ManualClock clock = new ManualClock(0);
        StreamingContext first = context(clock);
        CountDownLatch done = new CountDownLatch(1);
        first.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                long t = event.batchInfo().batchTime().milliseconds();
                if (t == batches * INTERVAL.toMillis()) {
                    done.countDown();
                } else if (t < batches * INTERVAL.toMillis()) { // keep AHEAD batches generated, not yet run
                    clock.setTime(Math.max(clock.millis(), t + AHEAD * INTERVAL.toMillis()));
                }
            }
        });
        first.start();
        clock.setTime(AHEAD * INTERVAL.toMillis());
        assertTrue(done.await(120, TimeUnit.SECONDS), "batch " + batches + " completed");
        first.stop(false, false);
        assertEquals(expected(batches), states.get(batches * INTERVAL.toMillis()));

        ManualClock restartClock = new ManualClock(clock.millis());
        StreamingContext second = context(restartClock);
        assertEquals(Optional.of(new Time(batches * INTERVAL.toMillis())), second.recoveredBatch(),
                "the restart recovers the newest checkpoint, not an older one whose files are all there");
        long next = (batches + 1) * INTERVAL.toMillis();
        CountDownLatch nextDone = new CountDownLatch(1);
        second.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                if (event.batchInfo().batchTime().milliseconds() == next) {
                    nextDone.countDown();
                }
            }
        });
        second.start();
        restartClock.setTime(Math.max(restartClock.millis(), next));
        assertTrue(nextDone.await(120, TimeUnit.SECONDS), "batch " + (batches + 1) + " completed after the restart");
        second.stop(false, false);
        assertEquals(expected(batches + 1), states.get(next));
    }
}
