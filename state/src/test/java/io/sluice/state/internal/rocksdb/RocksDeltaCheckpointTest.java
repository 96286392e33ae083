package io.sluice.state.internal.rocksdb;

import static io.sluice.state.internal.rocksdb.RocksStateFixture.KEYS;
import static io.sluice.state.internal.rocksdb.RocksStateFixture.ROCKS;
import static io.sluice.state.internal.rocksdb.RocksStateFixture.contents;
import static io.sluice.state.internal.rocksdb.RocksStateFixture.counting;
import static io.sluice.state.internal.rocksdb.RocksStateFixture.counts;
import static io.sluice.state.internal.rocksdb.RocksStateFixture.progress;
import static io.sluice.state.internal.rocksdb.RocksStateFixture.tablesOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.HadoopCheckpointStorage;
import io.sluice.state.internal.HeapBackend;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.checkpoint.PartitionFiles;
import io.sluice.state.internal.checkpoint.SavedState;
import io.sluice.state.internal.checkpoint.StateFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocksdb.RocksIterator;

/**
 * Between table checkpoints a RocksDB partition's checkpoint is an entry delta (the format heap state writes): the
 * keys changed since the checkpoint before, read from the time index or, without a timeout, from the change log.
 * A chain of a manifest and deltas restores exactly on either backend, a recomputed batch writes the same delta,
 * and the change log keeps only what the next delta may read.
 */
class RocksDeltaCheckpointTest {
    @TempDir
    Path dir;

    private static StateVersion<String, Long> step(boolean timed, StateVersion<String, Long> v, long time,
            List<String> ops) {
        return RocksStateFixture.step(counting(timed), v, time, ops);
    }

    private HadoopCheckpointStorage storage() throws Exception {
        return new HadoopCheckpointStorage(dir.resolve("checkpoint").toString(), new Configuration());
    }

    private List<StateFile> checkpoint(String op, StateVersion<String, Long> v, long time, Long since,
            List<StateFile> tablesFrom) throws Exception {
        HadoopCheckpointStorage storage = storage();
        return PartitionFiles.checkpoint(storage.fileSystem(), storage.root(), op, new Time(time), 0, v, since,
                tablesOf(tablesFrom));
    }

    private StateVersion<String, Long> read(List<StateFile> chain, io.sluice.state.internal.StateBackend backend)
            throws Exception {
        HadoopCheckpointStorage storage = storage();
        return PartitionFiles.read(storage.fileSystem(), storage.root(), chain, backend);
    }

    @ParameterizedTest(name = "timed {0}")
    @ValueSource(booleans = {true, false})
    void aDeltaHoldsTheChangedKeysAndAManifestWithDeltasRestoresExactlyOnEitherBackend(boolean timed)
            throws Exception {
        StateVersion<String, Long> v1 = step(timed, ROCKS.empty(0, timed), 1000, counts(0, KEYS, 1));
        List<StateFile> table = checkpoint("counts", v1, 1000, null, List.of());
        assertEquals(StateFile.Kind.FULL, table.get(0).kind(), "a manifest and its tables first: " + table);
        long tableBytes = table.stream().mapToLong(StateFile::length).sum();

        List<String> ops2 = counts(0, KEYS, 100); // 1% of the keys change, one is removed
        ops2.add("-key-1");
        StateVersion<String, Long> v2 = step(timed, v1, 2000, ops2);
        List<StateFile> d2 = checkpoint("counts", v2, 2000, 1000L, table);
        assertEquals(List.of(StateFile.Kind.DELTA), d2.stream().map(StateFile::kind).toList(), "only a delta");
        assertTrue(d2.get(0).length() * 20 < tableBytes, "the delta holds what changed: " + d2.get(0).length()
                + " bytes, against " + tableBytes + " for the table checkpoint");

        List<String> ops3 = counts(50, KEYS, 100); // other keys, the removed one back, another removed
        ops3.add("+key-1");
        ops3.add("-key-2");
        StateVersion<String, Long> v3 = step(timed, v2, 3000, ops3);
        List<StateFile> d3 = checkpoint("counts", v3, 3000, 2000L, table);
        assertEquals(StateFile.Kind.DELTA, d3.get(0).kind());

        List<StateFile> chain = List.of(table.get(0), d2.get(0), d3.get(0));
        Map<String, String> expected = contents(v3);
        assertEquals(KEYS - 1, expected.size());
        assertEquals("2@2000", expected.get("key-0"));
        assertEquals("2@3000", expected.get("key-50"));
        assertEquals("1@3000", expected.get("key-1"));
        assertEquals("1@1000", expected.get("key-3"));
        assertFalse(expected.containsKey("key-2"));
        StateVersion<String, Long> onRocks = read(chain, ROCKS);
        assertEquals(expected, contents(onRocks));
        assertEquals(expected, contents(read(chain, HeapBackend.INSTANCE)));
        assertEquals(KEYS - 1, onRocks.size());
        assertEquals(3000, onRocks.batchTime());

        // the restored store goes on like any: a retry sees the same version, which never changes
        StateVersion<String, Long> later = step(timed, onRocks, 4000, List.of("+key-0"));
        assertEquals(contents(later), contents(step(timed, onRocks, 4000, List.of("+key-0"))));
        assertEquals("3@4000", contents(later).get("key-0"));
        assertEquals(expected, contents(onRocks), "the restored version never changes");
        if (timed) { // the deltas moved keys in the time index: at 13.5 s all but key-0 (4 s) are idle 10 s
            assertEquals(Map.of("key-0", "3@4000"), contents(step(true, later, 13_500, List.of())));
        }
        // and its own changes since the restored batch are a delta again
        List<StateFile> d4 = checkpoint("counts", later, 4000, 3000L, table);
        assertEquals(StateFile.Kind.DELTA, d4.get(0).kind());
        List<StateFile> longer = new ArrayList<>(chain);
        longer.add(d4.get(0));
        assertEquals(contents(later), contents(read(longer, HeapBackend.INSTANCE)));
    }

    @ParameterizedTest(name = "timed {0}")
    @ValueSource(booleans = {true, false})
    void aRecomputedBatchWritesTheSameDeltaAsTheBatchItRepeats(boolean timed) throws Exception {
        StateVersion<String, Long> v1 = step(timed, ROCKS.empty(0, timed), 1000, counts(0, KEYS, 1));
        List<StateFile> table = checkpoint("counts", v1, 1000, null, List.of());
        List<String> ops2 = counts(0, KEYS, 100);
        ops2.add("-key-7");
        StateVersion<String, Long> v2 = step(timed, v1, 2000, ops2);
        step(timed, v2, 3000, counts(10, KEYS, 100)); // the store's head moves on
        // batch 2000 recomputed from the state of 1000 (its cached state lost): written into a copy of it
        StateVersion<String, Long> recomputed = step(timed, v1, 2000, ops2);
        List<StateFile> first = checkpoint("counts", v2, 2000, 1000L, table);
        List<StateFile> again = checkpoint("recomputed", recomputed, 2000, 1000L, table);
        assertEquals(StateFile.Kind.DELTA, first.get(0).kind());
        assertEquals(StateFile.Kind.DELTA, again.get(0).kind());
        assertEquals(first.get(0).length(), again.get(0).length());
        Map<String, String> expected = contents(v2);
        assertEquals(expected, contents(read(List.of(table.get(0), first.get(0)), ROCKS)));
        assertEquals(expected, contents(read(List.of(table.get(0), again.get(0)), ROCKS)));
    }

    @org.junit.jupiter.api.Test
    void aDeltaKeepsItsManifestAndTablesUntilNoKeptCheckpointNeedsThem() throws Exception {
        HadoopCheckpointStorage storage = storage();
        CheckpointStore store = new CheckpointStore(storage, 1);
        StateVersion<String, Long> v1 = step(false, ROCKS.empty(0, false), 1000, counts(0, KEYS, 1));
        List<StateFile> table = checkpoint("counts", v1, 1000, null, List.of());
        store.write(progress(1000, table));
        StateVersion<String, Long> v2 = step(false, v1, 2000, counts(0, KEYS, 100));
        List<StateFile> withDelta = new ArrayList<>(table); // a delta's checkpoint lists the chain it follows
        withDelta.addAll(checkpoint("counts", v2, 2000, 1000L, table));
        store.write(progress(2000, withDelta));
        for (StateFile f : withDelta) { // only the newest progress checkpoint is kept: it needs all of them
            assertTrue(Files.exists(dir.resolve("checkpoint").resolve(f.path())), "kept: " + f.path());
        }

        RocksStore rocks = ((RocksStateVersion<String, Long>) v2).store;
        for (var family : List.of(rocks.entries, rocks.times, rocks.removals)) {
            rocks.db.compactRange(family); // every table file is rewritten
        }
        StateVersion<String, Long> v3 = step(false, v2, 3000, counts(50, KEYS, 100));
        List<StateFile> next = checkpoint("counts", v3, 3000, null, withDelta); // the next table checkpoint
        store.write(progress(3000, next));
        for (StateFile f : withDelta) {
            assertFalse(Files.exists(dir.resolve("checkpoint").resolve(f.path())), "deleted: " + f.path());
        }
        SavedState kept = SavedState.allOf(store.latest().checkpoint().orElseThrow()).get(0);
        assertEquals(contents(v3), contents(read(kept.chainOf(0), HeapBackend.INSTANCE)));
    }

    @org.junit.jupiter.api.Test
    void withoutATimeoutTheChangeLogKeepsOnlyWhatTheNextDeltaMayRead() throws Exception {
        StateVersion<String, Long> v1 = step(false, ROCKS.empty(0, false), 1000, counts(0, KEYS, 1));
        List<StateFile> table = checkpoint("counts", v1, 1000, null, List.of());
        StateVersion<String, Long> v2 = step(false, v1, 2000, counts(0, KEYS, 100));
        checkpoint("counts", v2, 2000, 1000L, table);
        StateVersion<String, Long> v3 = step(false, v2, 3000, counts(50, KEYS, 100));
        checkpoint("counts", v3, 3000, 2000L, table); // the next delta is since 3000: the log through 2000 goes
        StateVersion<String, Long> v4 = step(false, v3, 4000, List.of("+key-0"));
        RocksStore store = ((RocksStateVersion<String, Long>) v4).store;
        int logged = 0;
        try (RocksIterator it = store.db.newIterator(store.times)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                logged++;
            }
        }
        assertEquals(KEYS / 100 + 1, logged, "the keys changed at 3000 and 4000, not the 20,000 of 1000 and 2000");
        assertTrue(v4.hasChangesSince(2000));
        assertFalse(v4.hasChangesSince(1000));
        assertEquals(StateFile.Kind.FULL, checkpoint("counts", v4, 4000, 1000L, table).get(0).kind(),
                "changes since 1000 are forgotten: a table checkpoint");
    }
}
