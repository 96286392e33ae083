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
 * either way with its state exact, a RocksDB job's checkpoints upload only the table files that changed, and a
 * driver restart in the same JVM links the files it checkpointed instead of fetching them.
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
        deploy("heap", 3, 9);
        Map<Long, List<String>> expected = new TreeMap<>(states);
        assertEquals(KEYS, expected.get(1000L).size());
        dir = dir.resolve("switched");
        states.clear();
        now = 0;
        deploy("heap", 3, 3);     // heap checkpoint
        deploy("rocksdb", 3, 3);  // restored into RocksDB, checkpointed as its table files
        deploy("heap", 2, 3);     // restored from them into the heap, in another partition count
        assertEquals(expected, new TreeMap<>(states));
    }

    @Test
    void aRocksDbJobUploadsOnlyChangedTablesAndARestartLinksTheFilesItWrote() throws Exception {
        deploy("rocksdb", 2, 4);
        long first = checkpoints.get(1000L).bytesWritten();
        List<Long> later = new ArrayList<>();
        for (long t = 2000; t <= 4000; t += 1000) {
            later.add(checkpoints.get(t).bytesWritten());
        }
        // A checkpoint uploads the tables flushed since the last (1% of the keys) and, after a compaction RocksDB
        // ran in the background meanwhile, the files it rewrote: at most one of these three
        assertTrue(later.stream().sorted().toList().get(1) * 5 < first, "later checkpoints write what changed: "
                + later + " bytes, after " + first + " for all " + KEYS + " keys");
        assertTrue(later.stream().mapToLong(Long::longValue).sum() < 2 * first, "no full upload: " + later);
        long fetched = LocalTableFiles.fetchedBytes();
        long reused = LocalTableFiles.reusedBytes();
        deploy("rocksdb", 2, 2);
        assertEquals(0, LocalTableFiles.fetchedBytes() - fetched, "the restart fetched no table file");
        assertTrue(LocalTableFiles.reusedBytes() - reused > 0, "it linked the files this JVM wrote");
        List<String> state = states.get(6000L);
        assertEquals(KEYS, state.size());
        long total = 0;
        for (String line : state) {
            total += Long.parseLong(line.substring(line.indexOf('=') + 1));
        }
        assertEquals(KEYS + 5 * PER_BATCH, total, "every record counted once across the restart");
    }
}
