package io.sluice.dstream.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.MapWithStateDStream;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StateCheckpointInfo;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.dstream.testing.OnEachStateBackend;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.StreamTester;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import scala.Tuple2;

/**
 * What a listener hears of a stateful operator in each completed batch ({@code BatchInfo.stateOperatorInfos}):
 * the keys in its state after the batch, the keys that timed out in it, an estimate of the state's bytes, and on
 * its checkpoint batches what the checkpoint wrote, whose bytes are the files' sizes on disk.
 */
class StateFiguresTest extends OnEachStateBackend {
    @TempDir
    Path dir;

    /** With 1 s batches and a 2 s timeout, a key last updated at batch u times out at batch u + 3. */
    private static final List<List<String>> INPUT = List.of(
            List.of("a", "b"),  // 1: a b
            List.of("a"),       // 2: a b
            List.of("a", "c"),  // 3: a b c
            List.of(),          // 4: a c (b times out)
            List.of(),          // 5: a c
            List.of(),          // 6: - (a and c time out)
            List.of("a"),       // 7: a
            List.of());         // 8: a
    private static final List<Long> KEYS = List.of(2L, 2L, 3L, 2L, 2L, 0L, 1L, 1L);
    private static final List<Long> TIMED_OUT = List.of(0L, 0L, 0L, 1L, 0L, 2L, 0L, 0L);

    private static StateSpec<String, Integer, Integer, String> countWithTimeout() {
        return StateSpec.function((String key, Optional<Integer> one, State<Integer> state) -> {
            if (state.isTimingOut()) {
                return key + ":timeout";
            }
            state.update(state.getOption().orElse(0) + one.get());
            return key;
        }).timeout(Duration.ofSeconds(2)).numPartitions(2);
    }

    @Test
    void mapWithStateReportsKeysTimeoutsBytesAndCheckpointsPerBatch() throws IOException {
        Path checkpoints = dir.resolve("checkpoints");
        try (StreamTester t = new StreamTester()) {
            t.context().checkpoint(checkpoints.toString());
            MapWithStateDStream<String, Integer, Integer, String> counts = t.input(INPUT)
                    .mapToPair(w -> new Tuple2<>(w, 1)).mapWithState(countWithTimeout())
                    .name("counts").checkpoint(Duration.ofSeconds(2));
            t.collect(counts);
            List<StateOperatorInfo> seen = new ArrayList<>();
            for (int b = 0; b < INPUT.size(); b++) {
                BatchInfo info = t.runBatch();
                StateOperatorInfo s = info.stateOperatorInfos().get("counts");
                assertNotNull(s, "batch " + (b + 1) + " has no state figures: " + info.stateOperatorInfos());
                seen.add(s);
                assertEquals(info.batchTime(), s.batchTime());
                assertEquals(2, s.partitions());
                assertEquals(2, s.reportedPartitions(), "every partition reports, once");
                assertTrue(s.estimatedBytes() > 0, "estimated bytes of batch " + (b + 1));
                if (backend.equals("rocksdb") && s.numKeys() > 0) {
                    assertTrue(s.diskBytes() > 0, "the keys of batch " + (b + 1) + " are on local disk");
                } else if (backend.equals("heap")) {
                    assertEquals(0, s.diskBytes(), "heap state has nothing on disk");
                }
                StateCheckpointInfo c = s.checkpoint();
                if (c != null) { // bytes checked as soon as the batch completed: retention keeps these files
                    assertEquals(2, c.fullFiles() + c.deltaFiles(), "a file per partition");
                    assertTrue(c.bytesWritten() > 0);
                    assertEquals(bytesOnDisk(checkpoints, info.batchTime().milliseconds()), c.bytesWritten(),
                            "bytes written at batch " + (b + 1));
                    assertTrue(c.writeMillis() >= 0);
                }
            }
            assertEquals(KEYS, seen.stream().map(StateOperatorInfo::numKeys).toList(), "keys after each batch");
            assertEquals(TIMED_OUT, seen.stream().map(StateOperatorInfo::timedOutKeys).toList(),
                    "keys timed out in each batch");
            List<Integer> checkpointed = new ArrayList<>();
            for (int b = 0; b < seen.size(); b++) {
                if (seen.get(b).checkpoint() != null) {
                    checkpointed.add(b);
                }
            }
            assertEquals(4, checkpointed.size(), "a checkpoint every other batch: " + checkpointed);
            for (int i = 1; i < checkpointed.size(); i++) {
                assertEquals(checkpointed.get(i - 1) + 2, (int) checkpointed.get(i), "every other: " + checkpointed);
            }
            assertEquals("full", seen.get(checkpointed.get(0)).checkpoint().kind(), "the first is a snapshot");
            assertEquals("delta", seen.get(checkpointed.get(1)).checkpoint().kind(),
                    "the next the changes since, on either backend");
        }
    }

    @Test
    void updateStateByKeyReportsItsKeysAndNoTimeoutsOrCheckpointsWithoutADirectory() {
        try (StreamTester t = new StreamTester()) {
            var totals = t.input(List.of(List.of("x", "y"), List.of("x", "z"), List.of("drop-y"), List.of()))
                    .mapToPair(w -> new Tuple2<>(w.startsWith("drop-") ? w.substring(5) : w, w.startsWith("drop-")))
                    .<Integer>updateStateByKey((drops, state) -> drops.contains(true) ? Optional.empty()
                            : Optional.of(state.orElse(0) + drops.size()), 3)
                    .name("totals");
            t.collect(totals);
            List<Long> keys = new ArrayList<>();
            for (BatchInfo info : t.runBatches(4)) {
                StateOperatorInfo s = info.stateOperatorInfos().get("totals");
                assertEquals(0, s.timedOutKeys());
                assertEquals(3, s.partitions());
                assertEquals(3, s.reportedPartitions());
                assertNull(s.checkpoint(), "no checkpoint directory: no state checkpoint");
                keys.add(s.numKeys());
            }
            assertEquals(List.of(2L, 3L, 2L, 2L), keys);
        }
    }

    /** The sizes of the state files of operator "counts" written at batch {@code time} (full or delta). */
    private static long bytesOnDisk(Path checkpoints, long time) throws IOException {
        Path operator = checkpoints.resolve("state").resolve("counts");
        long total = 0;
        int files = 0;
        for (String kind : List.of("-full", "-delta")) {
            Path batch = operator.resolve(time + kind);
            if (!Files.isDirectory(batch)) {
                continue;
            }
            try (Stream<Path> parts = Files.list(batch)) {
                for (Path p : parts.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
                    total += Files.size(p);
                    files++;
                }
            }
        }
        assertEquals(2, files, "state files of batch " + time + " under " + operator);
        try (Stream<Path> all = Files.walk(operator)) { // RocksDB table files this batch uploaded
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                if (p.getParent().getFileName().toString().startsWith("shared-")
                        && p.getFileName().toString().startsWith(time + "-")) {
                    total += Files.size(p);
                }
            }
        }
        return total;
    }
}
