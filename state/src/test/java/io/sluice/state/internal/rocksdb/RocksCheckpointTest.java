package io.sluice.state.internal.rocksdb;

import static io.sluice.state.internal.rocksdb.RocksStateFixture.KEYS;
import static io.sluice.state.internal.rocksdb.RocksStateFixture.OP;
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
import io.sluice.state.internal.MapWithStateTransition;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.checkpoint.StateFile;
import io.sluice.state.internal.checkpoint.PartitionFiles;
import io.sluice.state.internal.checkpoint.SavedState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Table checkpoints of RocksDB state (deltas between them: {@link RocksDeltaCheckpointTest}): a checkpoint uploads
 * only the table files the one it builds on does not name, shared files go when no kept checkpoint names them, a
 * restore here links the files this JVM still has, and the state read back, on RocksDB or on the heap, is exactly
 * the checkpointed one.
 */
class RocksCheckpointTest {
    /** "+k" counts k, "-k" removes it; keys time out after 10 s. */
    private static final MapWithStateTransition<String, String, Long, String> COUNT = counting(true);

    @TempDir
    Path dir;

    private static StateVersion<String, Long> step(StateVersion<String, Long> v, long time, List<String> ops) {
        return RocksStateFixture.step(COUNT, v, time, ops);
    }

    /** The files of a partition's checkpoint that were written at {@code time}, and their bytes. */
    private static long bytesWrittenAt(List<StateFile> files, long time) {
        return files.stream().filter(f -> f.time().milliseconds() == time).mapToLong(StateFile::length).sum();
    }

    private HadoopCheckpointStorage storage() throws Exception {
        return new HadoopCheckpointStorage(dir.resolve("checkpoint").toString(), new Configuration());
    }

    @Test
    void aSecondCheckpointUploadsOnlyNewTablesAndRestoresExactlyOnEitherBackend() throws Exception {
        HadoopCheckpointStorage storage = storage();
        FileSystem fs = storage.fileSystem();
        StateVersion<String, Long> v1 = step(ROCKS.empty(0, true), 1000, counts(0, KEYS, 1));
        List<StateFile> first = PartitionFiles.checkpoint(fs, storage.root(), OP, new Time(1000), 0, v1, null,
                new HashMap<>());
        assertEquals(StateFile.Kind.FULL, first.get(0).kind(), "a manifest first");
        assertTrue(first.size() > 1, "then the table files it names: " + first);
        long firstBytes = bytesWrittenAt(first, 1000);

        List<String> ops = counts(0, KEYS, 100); // 1% of the keys change
        ops.add("-key-1");
        StateVersion<String, Long> v2 = step(v1, 2000, ops);
        List<StateFile> second = PartitionFiles.checkpoint(fs, storage.root(), OP, new Time(2000), 0, v2, null,
                tablesOf(first)); // a table checkpoint (no delta asked for) on the first one's tables
        long secondBytes = bytesWrittenAt(second, 2000);
        assertTrue(second.stream().anyMatch(f -> f.kind() == StateFile.Kind.TABLE && f.time().milliseconds() == 1000),
                "the second names the first's tables: " + second);
        assertTrue(secondBytes * 10 < firstBytes, "the second checkpoint uploads only what changed: " + secondBytes
                + " bytes after " + firstBytes);

        List<StateFile> chain = List.of(second.get(0));
        StateVersion<String, Long> onRocks = PartitionFiles.read(fs, storage.root(), chain, ROCKS);
        StateVersion<String, Long> onHeap = PartitionFiles.read(fs, storage.root(), chain, HeapBackend.INSTANCE);
        Map<String, String> expected = contents(v2);
        assertEquals(KEYS - 1, expected.size());
        assertEquals("2@2000", expected.get("key-100"));
        assertEquals(expected, contents(onRocks));
        assertEquals(expected, contents(onHeap));
        assertEquals(2000, onRocks.batchTime());
        assertEquals(KEYS - 1, onRocks.size());

        // the restored store goes on like any: timeouts from its time index, and a retry sees the same version
        StateVersion<String, Long> later = step(onRocks, 11_500, List.of("+key-0"));
        StateVersion<String, Long> retried = step(onRocks, 11_500, List.of("+key-0"));
        assertEquals(contents(later), contents(retried));
        assertEquals(Map.of("key-0", "3@11500", "key-100", "2@2000", "key-200", "2@2000"),
                Map.of("key-0", contents(later).get("key-0"), "key-100", contents(later).get("key-100"),
                        "key-200", contents(later).get("key-200")));
        assertEquals(expected, contents(onRocks), "the restored version never changes");
        StateVersion<String, Long> timedOut = step(onRocks, 12_500, List.of());
        assertEquals(Map.of(), contents(timedOut), "every key idle for more than 10 s timed out");
    }

    @Test
    void aRestoreInTheJvmThatWroteTheCheckpointLinksItsFilesAndElsewhereFetchesThem() throws Exception {
        HadoopCheckpointStorage storage = storage();
        StateVersion<String, Long> v1 = step(ROCKS.empty(0, true), 1000, counts(0, KEYS, 1));
        List<StateFile> files = PartitionFiles.checkpoint(storage.fileSystem(), storage.root(), OP,
                new Time(1000), 0, v1, null, new HashMap<>());
        long tableBytes = files.stream().filter(f -> f.kind() == StateFile.Kind.TABLE)
                .mapToLong(StateFile::length).sum();

        long fetched = LocalTableFiles.fetchedBytes();
        long reused = LocalTableFiles.reusedBytes();
        StateVersion<String, Long> here = PartitionFiles.read(storage.fileSystem(), storage.root(),
                List.of(files.get(0)), ROCKS);
        assertEquals(0, LocalTableFiles.fetchedBytes() - fetched, "nothing fetched");
        assertEquals(tableBytes, LocalTableFiles.reusedBytes() - reused, "every table file linked");
        assertEquals(contents(v1), contents(here));

        // the same checkpoint moved elsewhere (another machine's view): every table is fetched
        Path moved = dir.resolve("moved");
        copyTree(dir.resolve("checkpoint"), moved);
        HadoopCheckpointStorage elsewhere = new HadoopCheckpointStorage(moved.toString(), new Configuration());
        fetched = LocalTableFiles.fetchedBytes();
        StateVersion<String, Long> there = PartitionFiles.read(elsewhere.fileSystem(), elsewhere.root(),
                List.of(files.get(0)), ROCKS);
        assertEquals(tableBytes, LocalTableFiles.fetchedBytes() - fetched);
        assertEquals(contents(v1), contents(there));
    }

    @Test
    void sharedTablesAreDeletedOnceNoKeptCheckpointNamesThem() throws Exception {
        HadoopCheckpointStorage storage = storage();
        FileSystem fs = storage.fileSystem();
        CheckpointStore store = new CheckpointStore(storage, 1);
        StateVersion<String, Long> v = step(ROCKS.empty(0, true), 1000, counts(0, KEYS, 1));
        List<StateFile> files = PartitionFiles.checkpoint(fs, storage.root(), OP, new Time(1000), 0, v, null,
                new HashMap<>());
        store.write(progress(1000, files));
        List<StateFile> firstTables = files.stream().filter(f -> f.kind() == StateFile.Kind.TABLE).toList();

        v = step(v, 2000, counts(0, KEYS, 100));
        files = PartitionFiles.checkpoint(fs, storage.root(), OP, new Time(2000), 0, v, null, tablesOf(files));
        store.write(progress(2000, files));
        for (StateFile t : firstTables) {
            assertTrue(Files.exists(dir.resolve("checkpoint").resolve(t.path())), "still named: " + t.path());
        }

        RocksStore rocks = ((RocksStateVersion<String, Long>) v).store;
        for (var family : List.of(rocks.entries, rocks.times, rocks.removals)) {
            rocks.db.compactRange(family); // every table file is rewritten
        }
        v = step(v, 3000, counts(0, KEYS, 100));
        files = PartitionFiles.checkpoint(fs, storage.root(), OP, new Time(3000), 0, v, null, tablesOf(files));
        List<String> named = files.stream().map(StateFile::path).toList();
        assertFalse(firstTables.stream().anyMatch(t -> named.contains(t.path())), "compacted: the old tables are gone");
        store.write(progress(3000, files));
        for (StateFile t : firstTables) {
            assertFalse(Files.exists(dir.resolve("checkpoint").resolve(t.path())), "deleted: " + t.path());
        }
        for (StateFile f : files) {
            assertTrue(Files.exists(dir.resolve("checkpoint").resolve(f.path())), "kept: " + f.path());
        }
        SavedState kept = SavedState.allOf(store.latest().checkpoint().orElseThrow()).get(0);
        assertEquals(contents(v), contents(PartitionFiles.read(fs, storage.root(), kept.chainOf(0),
                HeapBackend.INSTANCE)));
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (var paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
