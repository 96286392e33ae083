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
