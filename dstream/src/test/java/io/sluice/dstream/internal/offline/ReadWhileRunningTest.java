package io.sluice.dstream.internal.offline;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.CheckpointState;
import io.sluice.dstream.DStream;
import io.sluice.dstream.MapWithStateDStream;
import io.sluice.dstream.Settings;
import io.sluice.dstream.StateEntry;
import io.sluice.rdd.Time;
import io.sluice.state.internal.checkpoint.SavedState;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.SharedSpark;
import io.sluice.testkit.StreamTester;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * Reading state while its job runs: the job keeps two checkpoints and checkpoints its state every batch, so
 * the files of a batch are deleted a few batches later. A read made at batch 3 is complete when it returns:
 * after twelve more batches, when the job has deleted every file it read, it still holds batch 3's state. A
 * read whose chosen checkpoint loses its files before its job ran is told so (the newest is then chosen again).
 */
class ReadWhileRunningTest {
    private static final int BATCHES = 15;

    @TempDir
    Path dir;

    private static List<List<String>> words() {
        List<List<String>> batches = new ArrayList<>();
        for (int b = 0; b < BATCHES; b++) {
            List<String> batch = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                batch.add("k" + (b + i) % 6);
            }
            batches.add(batch);
        }
        return batches;
    }

    private static MapWithStateDStream<String, Integer, Integer, Integer> counts(DStream<String> words) {
        return words.mapToPair(w -> new Tuple2<>(w, 1))
                .mapWithState(StateSpec.function((String w, Optional<Integer> one, State<Integer> s) -> {
                    s.update(s.getOption().orElse(0) + one.get());
                    return s.get();
                }).numPartitions(2)).name("counts").checkpoint(Duration.ofSeconds(1));
    }

    @Test
    void aReadIsCompleteWhenItReturnsAndSurvivesTheJobDeletingItsFiles() throws Exception {
        Path checkpoint = dir.resolve("checkpoint");
        try (StreamTester t = new StreamTester()) {
            t.context().checkpoint(checkpoint.toString());
            t.context().conf(Settings.RETAINED_CHECKPOINTS, "2");
            MapWithStateDStream<String, Integer, Integer, Integer> counts = counts(t.input(words()));
            t.collect(counts);
            t.runBatches(3);
            awaitCheckpoint(checkpoint, 3000);
            Map<String, Integer> liveAt3 = new HashMap<>(counts.currentState().collectAsMap());

            CheckpointState state = CheckpointState.open(SharedSpark.context(), checkpoint.toString());
            JavaPairRDD<String, StateEntry<Integer>> read = state.read("counts");
            CheckpointDirectory directory = new CheckpointDirectory(checkpoint.toString(),
                    SharedSpark.context().hadoopConfiguration());
            SavedState chosen = directory.stateOf("counts", null);
            assertEquals(new Time(3000), chosen.time(), "the newest state when the read was made");

            t.runBatches(BATCHES - 3);
            awaitCheckpoint(checkpoint, BATCHES * 1000L);
            assertTrue(directory.firstMissing(chosen).isPresent(), "the job deleted the files of batch 3");
            assertTrue(!state.stateBatches("counts").contains(new Time(3000)), state.stateBatches("counts").toString());

            assertEquals(liveAt3, states(read), "the read made at batch 3 is unaffected");
            read.unpersist();

            OfflineStateReader reader = new OfflineStateReader(SharedSpark.context(), directory);
            assertThrows(OfflineStateReader.Vanished.class, () -> reader.entries(chosen),
                    "a checkpoint chosen before its files went is found gone before any task runs");
            assertEquals(new HashMap<>(counts.currentState().collectAsMap()), states(state.read("counts")),
                    "the newest state now");
            IllegalArgumentException gone = assertThrows(IllegalArgumentException.class,
                    () -> state.read("counts", new Time(3000)));
            assertTrue(gone.getMessage().contains("No checkpoint of the state of 'counts' at batch 3000"),
                    gone.getMessage());
        }
    }

    private static Map<String, Integer> states(JavaPairRDD<String, StateEntry<Integer>> read) {
        Map<String, Integer> states = new HashMap<>();
        read.collectAsMap().forEach((k, e) -> states.put(k, e.state()));
        return states;
    }

    /** Returns once the progress checkpoint of {@code batch} is on disk (written by the job's writer thread). */
    private static void awaitCheckpoint(Path checkpoint, long batch) throws Exception {
        Path progress = Files.createDirectories(checkpoint.resolve("progress"));
        Path file = progress.resolve("checkpoint-" + batch);
        try (WatchService watch = FileSystems.getDefault().newWatchService()) {
            progress.register(watch, ENTRY_CREATE);
            while (!Files.exists(file)) {
                WatchKey key = watch.poll(60, TimeUnit.SECONDS);
                if (key == null) {
                    throw new AssertionError("the checkpoint of batch " + batch + " was not written within 60 s");
                }
                key.pollEvents();
                key.reset();
            }
        }
    }
}
