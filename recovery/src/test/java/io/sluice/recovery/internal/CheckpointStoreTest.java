package io.sluice.recovery.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.recovery.UnusableCheckpointException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The store's logic on an in-memory directory: retention, and fallback past every kind of damage. */
class CheckpointStoreTest {
    private final InMemoryCheckpointStorage storage = new InMemoryCheckpointStorage();
    private final CheckpointStore store = new CheckpointStore(storage, 3);

    private void writeBatches(long... batchMs) throws IOException {
        for (long t : batchMs) {
            Checkpoint c = Checkpoints.at(t, 2000, 2);
            Checkpoints.writeDataFiles(storage, c);
            store.write(c);
        }
    }

    private void damage(String path, UnaryOperator<byte[]> how) throws IOException {
        storage.writeAtomically(path, how.apply(storage.read(path)));
    }

    private static String checkpointFile(long ms) {
        return "progress/checkpoint-" + ms;
    }

    @Test
    void anEmptyDirectoryHoldsNoCheckpointAndIsAFirstStart() throws IOException {
        assertTrue(store.latest().checkpoint().isEmpty());
    }

    @Test
    void readsTheNewestCheckpoint() throws IOException {
        writeBatches(2000, 3000, 4000);
        CheckpointStore.Recovered r = store.latest();
        assertEquals(Checkpoints.at(4000, 2000, 2), r.checkpoint().orElseThrow());
        assertEquals(List.of(), r.skipped());
    }

    @Test
    void keepsTheNewestNAndDeletesStateFilesNoKeptCheckpointReferences() throws IOException {
        writeBatches(2000, 3000, 4000, 5000);
        Checkpoint old = Checkpoints.at(1000, 1000, 2); // a superseded snapshot, referenced by nobody kept
        Checkpoints.writeDataFiles(storage, old);
        storage.writeAtomically("state/counts/9000-delta/part-00000", new byte[3]); // being written right now
        storage.writeAtomically("progress/.checkpoint-6000.1234.tmp", new byte[3]); // a crash before a rename
        writeBatches(6000);
        assertEquals(List.of(checkpointFile(4000), checkpointFile(5000), checkpointFile(6000)),
                storage.listFiles("progress"));
        List<String> state = storage.listFiles("state");
        for (long t = 2000; t <= 6000; t += 1000) {
            String kind = t == 2000 ? "-full" : "-delta";
            assertTrue(state.contains("state/counts/" + t + kind + "/part-00001"), t + " is still referenced");
        }
        assertTrue(state.contains("state/counts/9000-delta/part-00000"), "a newer batch's files stay");
        assertTrue(!state.contains("state/counts/1000-full/part-00000"), "an unreferenced snapshot is deleted");
    }

    @Test
    void keepsTheStateFilesTheEngineStillBuildsOnThoughNoKeptCheckpointReferencesThem() throws IOException {
        Checkpoint base = Checkpoints.at(1000, 1000, 2); // the base of a state checkpoint planned, not yet written
        Checkpoints.writeDataFiles(storage, base);
        for (long t : new long[] {3000, 4000, 5000, 6000}) {
            Checkpoint c = Checkpoints.at(t, t, 2);
            Checkpoints.writeDataFiles(storage, c);
            store.write(c, base.records());
        }
        assertTrue(storage.listFiles("state").contains("state/counts/1000-full/part-00001"), "the base stays");

        Checkpoint c = Checkpoints.at(7000, 7000, 2);
        Checkpoints.writeDataFiles(storage, c);
        store.write(c, List.of());
        assertTrue(!storage.listFiles("state").contains("state/counts/1000-full/part-00001"),
                "deleted once nothing uses it");
    }

    @Test
    void deletesEachSharedFileOnceNoKeptCheckpointReferencesIt() throws IOException {
        String shared = CheckpointStore.sharedDirectory("counts", "p00000");
        assertEquals("state/counts/shared-p00000", shared);
        // table files uploaded at 1000 and 2000, named by the checkpoints of 2000, 3000 and 4000 as shown
        writeWithShared(2000, shared + "/1000-a.sst", shared + "/2000-b.sst");
        writeWithShared(3000, shared + "/1000-a.sst", shared + "/3000-c.sst");
        storage.writeAtomically(shared + "/9000-d.sst", new byte[3]); // being uploaded right now
        storage.writeAtomically(shared + "/2500-e.sst.1234.tmp", new byte[3]); // an upload a crash interrupted
        writeWithShared(4000, shared + "/3000-c.sst");
        writeWithShared(5000, shared + "/3000-c.sst");
        writeWithShared(6000, shared + "/3000-c.sst"); // 2000 and 3000 are no longer kept (3 are)
        List<String> files = storage.listFiles(shared);
        assertEquals(List.of(shared + "/3000-c.sst", shared + "/9000-d.sst"), files.stream().sorted().toList(),
                "only what a kept checkpoint names, and what a batch after the newest is writing, stays");
    }

    private void writeWithShared(long batchMs, String... sharedFiles) throws IOException {
        List<OperatorRecord.DataFile> files = new java.util.ArrayList<>();
        for (String f : sharedFiles) {
            files.add(new OperatorRecord.DataFile("0 " + batchMs + " table", 3, f));
        }
        Checkpoint c = new Checkpoint(new io.sluice.rdd.Time(batchMs), Checkpoints.INTERVAL,
                new io.sluice.rdd.Time(0), List.of(), new io.sluice.rdd.Time(batchMs + 1000),
                java.util.Map.of("counts", "mapWithState"), List.of(),
                List.of(new OperatorRecord("counts", "mapWithState " + batchMs + " 1 128", files)));
        Checkpoints.writeDataFiles(storage, c);
        store.write(c);
    }

    @Test
    void fallsBackPastATruncatedCheckpointNamingIt() throws IOException {
        writeBatches(2000, 3000);
        damage(checkpointFile(3000), b -> Arrays.copyOf(b, b.length / 2));
        assertFallsBackTo(2000, checkpointFile(3000), "truncated");
    }

    @Test
    void fallsBackPastAFlippedByte() throws IOException {
        writeBatches(2000, 3000);
        damage(checkpointFile(3000), b -> {
            b[40] ^= 1;
            return b;
        });
        assertFallsBackTo(2000, checkpointFile(3000), "checksum");
    }

    @Test
    void fallsBackPastACheckpointWhoseDataFileIsMissing() throws IOException {
        writeBatches(2000, 3000);
        storage.delete("state/counts/3000-delta/part-00001");
        assertFallsBackTo(2000, checkpointFile(3000), "part-00001 is missing");
    }

    @Test
    void fallsBackPastACheckpointWhoseDataFileIsTruncated() throws IOException {
        writeBatches(2000, 3000);
        damage("state/counts/3000-delta/part-00000", b -> Arrays.copyOf(b, 3));
        assertFallsBackTo(2000, checkpointFile(3000), "has 3 bytes, not the 10");
    }

    @Test
    void fallsBackPastANewerFormatVersion() throws IOException {
        writeBatches(2000, 3000);
        damage(checkpointFile(3000), b -> new String(b, UTF_8).replace("checkpoint 1", "checkpoint 7").getBytes(UTF_8));
        assertFallsBackTo(2000, checkpointFile(3000), "format version 7");
    }

    @Test
    void failsClearlyWhenNoCheckpointIsUsable() throws IOException {
        writeBatches(2000, 3000);
        damage(checkpointFile(3000), b -> new byte[0]);
        storage.delete("state/counts/2000-full");
        IOException e = assertThrows(IOException.class, store::latest);
        assertTrue(e.getMessage().contains("No usable checkpoint in memory:/"), e.getMessage());
        assertTrue(e.getMessage().contains(checkpointFile(3000) + " is unusable: it is empty"), e.getMessage());
        assertTrue(e.getMessage().contains(checkpointFile(2000) + " is unusable: its data file"), e.getMessage());
    }

    @Test
    void aDamagedNewestCheckpointDoesNotBlockWritingNewOnes() throws IOException {
        writeBatches(2000, 3000);
        damage(checkpointFile(3000), b -> new byte[0]);
        writeBatches(4000);
        assertEquals(4000, store.latest().checkpoint().orElseThrow().batchTime().milliseconds());
    }

    private void assertFallsBackTo(long expectedMs, String badFile, String reason) throws IOException {
        CheckpointStore.Recovered r = store.latest();
        assertEquals(expectedMs, r.checkpoint().orElseThrow().batchTime().milliseconds());
        assertEquals(1, r.skipped().size());
        UnusableCheckpointException e = r.skipped().get(0);
        assertEquals("memory:/" + badFile, e.file());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
