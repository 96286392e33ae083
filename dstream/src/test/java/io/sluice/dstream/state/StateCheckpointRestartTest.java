package io.sluice.dstream.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.MapWithStateDStream;
import io.sluice.dstream.OffsetSource;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StateCheckpointInfo;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.dstream.testing.CompletedBatches;
import io.sluice.dstream.testing.StateBackends;
import io.sluice.rdd.Time;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.state.internal.rocksdb.LocalTableFiles;
import io.sluice.testkit.ManualClock;
import io.sluice.testkit.SharedSpark;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * Restarts over one checkpoint directory across the state backends: a job switches backend between deployments
 * either way with its state exact, a RocksDB job's checkpoints are entry deltas between table checkpoints (which
 * upload only the table files that changed), and a driver restart in the same JVM links the files it checkpointed
 * instead of fetching them.
 */
class StateCheckpointRestartTest {
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final long KEYS = 20_000;
    private static final long PER_BATCH = 200;

    @TempDir
    Path dir;

    /** Per batch: the state after it ("key=count", sorted), and its state checkpoint. */
    private final Map<Long, List<String>> states = new ConcurrentSkipListMap<>();
    private final Map<Long, StateCheckpointInfo> checkpoints = new ConcurrentSkipListMap<>();
    private long now;

    @AfterEach
    void resetBackend() {
        StateBackends.reset();
    }

    /**
     * The first batch's offsets (0 to 199) each count 100 keys: all {@value #KEYS}; every later offset counts one
     * key, so a later batch changes 1% of them.
     */
    private static Iterable<Long> keysOf(long offset) {
        return offset < PER_BATCH ? LongStream.range(offset * 100, offset * 100 + 100).boxed().toList()
                : List.of(offset * 37 % KEYS);
    }

    private static Long count(Long key, org.apache.spark.api.java.Optional<Long> one, State<Long> state) {
        long total = state.getOption().orElse(0L) + 1;
        state.update(total);
        return total;
    }

    /** One deployment on {@code backend}: getOrCreate, then {@code batches} batches, each checkpointing the state. */
    private void deploy(String backend, int partitions, int batches) throws InterruptedException {
        StateBackends.use(backend);
        ManualClock clock = new ManualClock(now);
        StreamingContext context = StreamingContext.getOrCreate(dir.resolve("checkpoint").toString(), () -> {
            StreamingContext c = StreamingContext.create(SharedSpark.context(), INTERVAL, clock);
            MapWithStateDStream<Long, Long, Long, Long> counts = OffsetSource.stream(c, PER_BATCH)
                    .flatMap(x -> keysOf(x).iterator()).mapToPair(k -> new Tuple2<>(k, 1L))
                    .mapWithState(StateSpec.function(StateCheckpointRestartTest::count).numPartitions(partitions))
                    .name("counts");
            counts.checkpoint(INTERVAL);
            counts.stateSnapshots().foreachRDD((rdd, time) -> {
                TreeMap<Long, Long> state = new TreeMap<>();
                rdd.collect().forEach(kv -> state.put(kv._1(), kv._2()));
                List<String> lines = new ArrayList<>();
                state.forEach((k, v) -> lines.add(k + "=" + v));
                states.put(time.milliseconds(), lines);
            });
            return c;
        });
        CompletedBatches completed = new CompletedBatches();
        context.addStreamingListener(completed);
        try {
            context.start();
            assertEquals(now == 0 ? Optional.empty() : Optional.of(new Time(now)), context.recoveredBatch());
            for (int b = 0; b < batches; b++) {
                now += INTERVAL.toMillis();
                BatchInfo info = completed.run(clock, now);
                StateOperatorInfo state = info.stateOperatorInfos().get("counts");
                if (state != null && state.checkpoint() != null) {
                    checkpoints.put(now, state.checkpoint());
                }
            }
        } finally {
            context.stop(false, false);
        }
    }

    @Test
    void aJobSwitchesBackendBetweenDeploymentsEitherWayWithItsStateExact() throws Exception {
        deploy("heap", 3, 12);
        Map<Long, List<String>> expected = new TreeMap<>(states);
        assertEquals(KEYS, expected.get(1000L).size());
        dir = dir.resolve("switched");
        states.clear();
        now = 0;
        deploy("heap", 3, 3);     // heap checkpoints: a snapshot and deltas
        deploy("rocksdb", 3, 3);  // restored into RocksDB, its checkpoints deltas after the heap's
        deploy("rocksdb", 2, 3);  // restored into another partition count: a table checkpoint, then deltas
        assertEquals("full", checkpoints.get(7000L).kind());
        assertEquals("delta", checkpoints.get(9000L).kind());
        deploy("heap", 2, 3);     // restored from the manifest and RocksDB's deltas into the heap
        assertEquals(expected, new TreeMap<>(states));
    }

    @Test
    void aRocksDbJobWritesDeltasBetweenTableCheckpointsAndARestartLinksTheFilesItWrote() throws Exception {
        deploy("rocksdb", 2, 12);
        long first = checkpoints.get(1000L).bytesWritten();
        assertEquals("full", checkpoints.get(1000L).kind(), "a manifest and the tables of all " + KEYS + " keys");
        for (long t = 2000; t <= 12_000; t += 1000) {
            // once a partition's chain holds 9 deltas, its next checkpoint is a table checkpoint again
            assertEquals(t == 11_000 ? "full" : "delta", checkpoints.get(t).kind(), "checkpoint at " + t);
            if (t != 11_000) {
                assertTrue(checkpoints.get(t).bytesWritten() * 20 < first, "a delta holds the 1% of keys that "
                        + "changed: " + checkpoints.get(t).bytesWritten() + " bytes, after " + first);
            }
        }
        assertTrue(checkpoints.get(11_000L).bytesWritten() < 2 * first, "no full upload: only the new tables");
        long fetched = LocalTableFiles.fetchedBytes();
        long reused = LocalTableFiles.reusedBytes();
        deploy("rocksdb", 2, 2); // restored from the manifest of 11000 and the delta of 12000
        assertEquals(0, LocalTableFiles.fetchedBytes() - fetched, "the restart fetched no table file");
        assertTrue(LocalTableFiles.reusedBytes() - reused > 0, "it linked the files this JVM wrote");
        List<String> state = states.get(14_000L);
        assertEquals(KEYS, state.size());
        long total = 0;
        for (String line : state) {
            total += Long.parseLong(line.substring(line.indexOf('=') + 1));
        }
        assertEquals(KEYS + 13 * PER_BATCH, total, "every record counted once across the restart");
    }
}
