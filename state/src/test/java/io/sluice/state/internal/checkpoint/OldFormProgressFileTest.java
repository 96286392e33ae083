package io.sluice.state.internal.checkpoint;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.CheckpointFormat;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.HadoopCheckpointStorage;
import io.sluice.state.internal.HeapBackend;
import io.sluice.state.internal.HeapStateVersion;
import io.sluice.state.internal.MapWithStateTransition;
import io.sluice.state.internal.MappingFunction;
import io.sluice.state.internal.StateVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * A progress file as Sluice wrote it while recovery still modelled state chains itself (its {@code state} and
 * {@code file} lines, literally): it restores into the same state checkpoint and the same state, and writing it
 * again gives the same bytes.
 */
class OldFormProgressFileTest {
    private static final String ID = "word counts";

    @TempDir
    Path dir;

    private static final MapWithStateTransition<String, String, Long, String> COUNT = new MapWithStateTransition<>(
            (time, key, op, state) -> {
                state.update(state.getOption().orElse(0L) + 1);
                return MappingFunction.NONE;
            }, 0, ID);

    private static StateVersion<String, Long> count(StateVersion<String, Long> v, long time, String... keys) {
        List<Tuple2<String, String>> records = new ArrayList<>();
        for (String k : keys) {
            records.add(new Tuple2<>(k, "+"));
        }
        return COUNT.apply(v, records.iterator(), time).state();
    }

    private static Map<String, Long> contents(StateVersion<String, Long> v) throws Exception {
        Map<String, Long> m = new TreeMap<>();
        v.forEach((k, s, t) -> m.put(k + "@" + t, s));
        return m;
    }

    @Test
    void anOldFormProgressFileRestoresItsStateAndIsWrittenBackIdentically() throws Exception {
        HadoopCheckpointStorage storage = new HadoopCheckpointStorage(dir.toString(), new Configuration());
        var fs = storage.fileSystem();
        var root = storage.root();
        StateVersion<String, Long> p0 = count(HeapStateVersion.empty(0, false), 2000, "a", "a");
        StateFile p0Snapshot = PartitionFiles.write(fs, root, ID, new Time(2000), 0, p0, null);
        StateFile p0Delta = PartitionFiles.write(fs, root, ID, new Time(3000), 0, count(p0, 3000, "c"), 2000L);
        StateFile p1Snapshot = PartitionFiles.write(fs, root, ID, new Time(2000), 1,
                count(HeapStateVersion.empty(0, false), 2000, "b"), null);
        assertEquals(List.of(true, false, true), List.of(p0Snapshot.full(), p0Delta.full(), p1Snapshot.full()));

        String body = "sluice-checkpoint 1\n"
                + "batch-time 3000\n"
                + "batch-interval 1000\n"
                + "zero-time 0\n"
                + "next-batch-time 4000\n"
                + "operator word+counts mapWithState\n"
                + "state word+counts mapWithState 3000 2 128\n"
                + "file word+counts 0 2000 full " + p0Snapshot.length() + " state/word+counts/2000-full/part-00000\n"
                + "file word+counts 0 3000 delta " + p0Delta.length() + " state/word+counts/3000-delta/part-00000\n"
                + "file word+counts 1 2000 full " + p1Snapshot.length() + " state/word+counts/2000-full/part-00001\n";
        CRC32C crc = new CRC32C();
        crc.update(body.getBytes(UTF_8));
        byte[] oldForm = (body + String.format(Locale.ROOT, "crc32c %08x\n", (int) crc.getValue())).getBytes(UTF_8);
        storage.writeAtomically(CheckpointStore.PROGRESS_DIR + "/checkpoint-3000", oldForm);

        Checkpoint checkpoint = new CheckpointStore(storage, 10).latest().checkpoint().orElseThrow();
        SavedState state = SavedState.of(checkpoint, ID).orElseThrow();
        assertEquals(new SavedState(ID, "mapWithState", new Time(3000), 2, 128,
                List.of(p0Snapshot, p0Delta, p1Snapshot)), state);
        assertEquals(Map.of("a@2000", 2L, "c@3000", 1L),
                contents(PartitionFiles.read(fs, root, state.chainOf(0), HeapBackend.INSTANCE)));
        assertEquals(Map.of("b@2000", 1L),
                contents(PartitionFiles.read(fs, root, state.chainOf(1), HeapBackend.INSTANCE)));
        assertArrayEquals(oldForm, CheckpointFormat.encode(checkpoint), "the new writer writes the old form");
    }
}
