package io.sluice.state.internal.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.rdd.KeyGroupPartitioner;
import io.sluice.rdd.KeyGroups;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.SparkContexts;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.HadoopCheckpointStorage;
import io.sluice.state.internal.MapWithStateTransition;
import io.sluice.state.internal.MappingFunction;
import io.sluice.state.internal.StateVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.SerializableConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/** Decoding a restart's state ahead: what a task takes equals what it would read, once, and only for its chain. */
class StatePrefetchTest {
    private static final int PARTITIONS = 3;

    @TempDir
    Path dir;

    /** Writes the state of batch 2000 (a snapshot at 1000 and a delta at 2000 per partition) and its checkpoint. */
    private Checkpoint writeCheckpoint(HadoopCheckpointStorage storage) throws Exception {
        org.apache.hadoop.fs.Path root = storage.root();
        List<StateFile> files = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            StateVersion<String, Long> v1 = step(io.sluice.state.internal.HeapStateVersion.empty(0, false), 1000, "+a" + p, "+b" + p, "+b" + p);
            files.add(PartitionFiles.write(storage.fileSystem(), root, "counts", new Time(1000), p, v1, null));
            StateVersion<String, Long> v2 = step(v1, 2000, "+a" + p, "-b" + p);
            files.add(PartitionFiles.write(storage.fileSystem(), root, "counts", new Time(2000), p, v2, 1000L));
        }
        assertEquals(2 * PARTITIONS, files.size());
        assertEquals(PARTITIONS, files.stream().filter(f -> !f.full()).count(), "the second files are deltas");
        Checkpoint checkpoint = new Checkpoint(new Time(2000), Duration.ofSeconds(1), new Time(0), List.of(),
                new Time(3000), Map.of("counts", "mapWithState"), List.of(),
                List.of(new SavedState("counts", "mapWithState", new Time(2000), PARTITIONS, 16, files)
                        .toRecord()));
        new CheckpointStore(storage, 10).write(checkpoint);
        return checkpoint;
    }

    /** "+k" counts k, "-k" removes it. */
    private static final MapWithStateTransition<String, String, Long, String> COUNT = new MapWithStateTransition<>(
            (time, key, op, state) -> {
                if (op.get().equals("-")) {
                    state.remove();
                } else {
                    state.update(state.getOption().orElse(0L) + 1);
                }
                return MappingFunction.NONE;
            }, 0, "counts");

    private static StateVersion<String, Long> step(StateVersion<String, Long> v, long time, String... ops) {
        List<Tuple2<String, String>> records = new ArrayList<>();
        for (String op : ops) {
            records.add(new Tuple2<>(op.substring(1), op.substring(0, 1)));
        }
        return COUNT.apply(v, records.iterator(), time).state();
    }

    private static Map<String, Long> contents(StateVersion<String, Long> v) throws Exception {
        Map<String, Long> m = new TreeMap<>();
        v.forEach((k, s, t) -> m.put(k + "@" + t, s));
        return m;
    }

    /** The chain decoded ahead, once the prefetch knows its chains (waiting for its decoding), or null. */
    private static StateVersion<String, Long> takeWhenDecoded(StatePrefetch prefetch, String root,
            List<StateFile> chain) throws InterruptedException {
        prefetch.awaitPlanned();
        return prefetch.take(root, chain);
    }

    @Test
    void aTaskTakesEachPartitionDecodedOnceAndItEqualsReadingTheFiles() throws Exception {
        HadoopCheckpointStorage storage = new HadoopCheckpointStorage(dir.toString(), new Configuration());
        SavedState state = SavedState.allOf(writeCheckpoint(storage)).get(0);
        String root = storage.root().toString();
        try (StatePrefetch prefetch = StatePrefetch.start(dir.toString())) {
            for (int p = 0; p < PARTITIONS; p++) {
                List<StateFile> chain = state.chainOf(p);
                StateVersion<String, Long> taken = takeWhenDecoded(prefetch, root, chain);
                assertNotNull(taken, "partition " + p + " was decoded ahead");
                StateVersion<String, Long> read = PartitionFiles.read(storage.fileSystem(), storage.root(), chain,
                        io.sluice.state.internal.HeapBackend.INSTANCE);
                assertEquals(contents(read), contents(taken));
                assertEquals(Map.of("a" + p + "@2000", 2L), contents(taken));
                assertNull(prefetch.take(root, chain), "a decoded partition is taken once");
            }
        }
    }

    @Test
    void chainsTheRestartDidNotChooseAreDroppedAndNothingIsLeftAfterClose() throws Exception {
        HadoopCheckpointStorage storage = new HadoopCheckpointStorage(dir.toString(), new Configuration());
        SavedState state = SavedState.allOf(writeCheckpoint(storage)).get(0);
        String root = storage.root().toString();
        StatePrefetch prefetch = StatePrefetch.start(dir.toString());
        assertNotNull(takeWhenDecoded(prefetch, root, state.chainOf(0)), "the planner registered the chains");
        prefetch.claim(root, List.of(state.chainOf(1)));
        prefetch.dropUnclaimed();
        assertNull(prefetch.take(root, state.chainOf(2)), "a chain the restart did not choose is dropped");
        prefetch.close();
        assertNull(prefetch.take(root, state.chainOf(1)), "close drops what was not taken");
    }

    @Test
    void aDamagedFileIsLeftToTheTaskToReport() throws Exception {
        HadoopCheckpointStorage storage = new HadoopCheckpointStorage(dir.toString(), new Configuration());
        SavedState state = SavedState.allOf(writeCheckpoint(storage)).get(0);
        String root = storage.root().toString();
        StateFile snapshot = state.chainOf(1).get(0);
        Path file = dir.resolve(snapshot.path());
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 1;
        Files.write(file, bytes);
        try (StatePrefetch prefetch = StatePrefetch.start(dir.toString())) {
            assertNotNull(takeWhenDecoded(prefetch, root, state.chainOf(0)));
            assertNull(takeWhenDecoded(prefetch, root, state.chainOf(1)),
                    "a chain that fails to decode is not handed out; the task reads it and names the bad file");
        }
    }

    @Test
    void aRestoreInTheDriversJvmTakesEveryPartitionItDecodedAhead() throws Exception {
        HadoopCheckpointStorage storage = new HadoopCheckpointStorage(dir.toString(), new Configuration());
        SavedState state = SavedState.allOf(writeCheckpoint(storage)).get(0);
        String root = storage.root().toString();
        StatePrefetch prefetch = StatePrefetch.start(dir.toString());
        prefetch.awaitPlanned();
        JavaSparkContext sc = new JavaSparkContext(SparkContexts.withDefaults(new SparkConf().setMaster("local[2]")
                .setAppName("state-prefetch").set("spark.ui.enabled", "false")));
        try {
            CheckpointSite site = new CheckpointSite(sc.sc(), root, storage.fileSystem(),
                    SerializableConfiguration.broadcast(sc.sc()), prefetch);
            CheckpointedState<String, Long> checkpoints = new CheckpointedState<>(site, "counts", "mapWithState",
                    "counts", new KeyGroupPartitioner(new KeyGroups(16), PARTITIONS),
                    io.sluice.state.internal.HeapBackend.INSTANCE);
            List<StateVersion<String, Long>> restored =
                    checkpoints.restore(state, new Time(3000)).collect();
            for (int p = 0; p < PARTITIONS; p++) {
                assertEquals(Map.of("a" + p + "@2000", 2L), contents(restored.get(p)));
                assertNull(prefetch.take(root, state.chainOf(p)), "the restore's task took partition " + p);
            }
        } finally {
            prefetch.close();
            sc.stop();
        }
    }
}
