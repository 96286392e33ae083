package io.sluice.recovery.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real file system under the store: what the in-memory tests assume holds on disk too. */
class HadoopCheckpointStorageTest {
    @TempDir
    Path dir;

    @Test
    void writesListsMeasuresAndDeletesRelativePaths() throws IOException {
        HadoopCheckpointStorage storage = new HadoopCheckpointStorage(dir.toUri().toString(), new Configuration());
        storage.writeAtomically("progress/checkpoint-1", new byte[] {1, 2, 3});
        storage.writeAtomically("state/a/1-full/part-00000", new byte[] {4});
        assertEquals(List.of("progress/checkpoint-1"), storage.listFiles("progress"));
        assertEquals(List.of("state/a/1-full/part-00000"), storage.listFiles("state"));
        assertEquals(List.of(), storage.listFiles("missing"));
        assertArrayEquals(new byte[] {1, 2, 3}, storage.read("progress/checkpoint-1"));
        assertEquals(OptionalLong.of(1), storage.length("state/a/1-full/part-00000"));
        assertEquals(OptionalLong.empty(), storage.length("state/b"));
        storage.delete("state/a");
        assertEquals(List.of(), storage.listFiles("state"));
        try (Stream<Path> all = Files.walk(dir)) {
            assertTrue(all.noneMatch(p -> p.toString().endsWith(".crc") || p.toString().endsWith(".tmp")),
                    "no side files or temp files are left");
        }
    }

    @Test
    void filesAndDirectoriesGetThePermissionsOfTheUmask() throws IOException {
        for (String umask : new String[] {"022", "077"}) {
            Configuration conf = new Configuration();
            conf.set("fs.permissions.umask-mode", umask);
            Path root = dir.resolve("umask-" + umask);
            new HadoopCheckpointStorage(root.toString(), conf).writeAtomically("progress/checkpoint-1", new byte[] {1});
            boolean open = umask.equals("022");
            assertEquals(open ? "rw-r--r--" : "rw-------", permissions(root.resolve("progress/checkpoint-1")));
            assertEquals(open ? "rwxr-xr-x" : "rwx------", permissions(root.resolve("progress")));
        }
    }

    private static String permissions(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void theStoreFallsBackPastAFileTruncatedOnDisk() throws IOException {
        HadoopCheckpointStorage storage = new HadoopCheckpointStorage(dir.toString(), new Configuration());
        CheckpointStore store = new CheckpointStore(storage, 10);
        for (long t : new long[] {2000, 3000}) {
            Checkpoint c = Checkpoints.at(t, 2000, 2);
            Checkpoints.writeDataFiles(storage, c);
            store.write(c);
        }
        Path newest = dir.resolve("progress/checkpoint-3000");
        try (RandomAccessFile f = new RandomAccessFile(newest.toFile(), "rw")) {
            f.setLength(f.length() - 1);
        }
        CheckpointStore.Recovered r = store.latest();
        assertEquals(2000, r.checkpoint().orElseThrow().batchTime().milliseconds());
        assertTrue(r.skipped().get(0).file().endsWith("progress/checkpoint-3000"), r.skipped().get(0).file());
        assertTrue(r.file().endsWith("progress/checkpoint-2000"), r.file());
    }
}
