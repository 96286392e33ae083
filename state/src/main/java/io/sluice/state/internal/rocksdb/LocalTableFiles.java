package io.sluice.state.internal.rocksdb;

import io.sluice.rdd.internal.LocalDirs;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The table files this JVM last checkpointed, kept on local disk (hard links, so they cost no space while the
 * store still has them) so that a restore here (a restart on the same SparkContext, or an executor restoring a
 * partition it wrote) links them into the new store instead of fetching them. Per shared directory (an operator's
 * partition) only the files of the newest checkpoint written from this JVM are kept; they live under Spark's local
 * directories and go with them.
 */
public final class LocalTableFiles {
    private static final AtomicLong FETCHED = new AtomicLong();
    private static final AtomicLong REUSED = new AtomicLong();
    /** By checkpoint root and path: the local copy. */
    private static final Map<String, File> FILES = new HashMap<>();
    /** By checkpoint root and shared directory: the keys of {@link #FILES} its newest checkpoint needs. */
    private static final Map<String, Set<String>> NEWEST = new HashMap<>();
    private static File dir;

    private LocalTableFiles() {
    }

    /** Bytes of table files this JVM fetched from checkpoints to restore a store. */
    public static long fetchedBytes() {
        return FETCHED.get();
    }

    /** Bytes of table files this JVM restored from its own local copies. */
    public static long reusedBytes() {
        return REUSED.get();
    }

    /**
     * Keeps the table files of a checkpoint just written from {@code checkpointDir} (its local copies of {@code
     * manifest}'s tables) under their checkpoint paths, and forgets the older ones of {@code sharedDir}.
     */
    static synchronized void keep(String root, String sharedDir, File checkpointDir, RocksManifest manifest)
            throws IOException {
        Set<String> keys = new HashSet<>();
        for (RocksManifest.Table t : manifest.tables()) {
            String key = root + "|" + t.path();
            keys.add(key);
            File kept = FILES.get(key);
            if (kept == null || kept.length() != t.length()) {
                File copy = new File(directory(), java.util.UUID.randomUUID() + ".sst");
                linkOrCopy(new File(checkpointDir, t.localName()), copy);
                FILES.put(key, copy);
            }
        }
        Set<String> older = NEWEST.put(root + "|" + sharedDir, keys);
        if (older != null) {
            for (String key : older) {
                if (!keys.contains(key)) {
                    File gone = FILES.remove(key);
                    if (gone != null) {
                        gone.delete();
                    }
                }
            }
        }
    }

    /** Puts table {@code t} of the checkpoint under {@code root} at {@code target}: a local copy, else fetched. */
    static void restore(FileSystem fs, Path root, RocksManifest.Table t, File target) throws IOException {
        File local;
        synchronized (LocalTableFiles.class) {
            local = FILES.get(root + "|" + t.path());
        }
        if (local != null && local.length() == t.length()) {
            try {
                linkOrCopy(local, target);
                REUSED.addAndGet(t.length());
                return;
            } catch (IOException e) {
                // gone meanwhile (its directory was deleted with Spark's): fetch it
            }
        }
        Path file = new Path(root, t.path());
        long length = fs.getFileStatus(file).getLen();
        if (length != t.length()) {
            throw new IOException("state table file " + file + " has " + length + " bytes, not the " + t.length()
                    + " it was written with");
        }
        try (FSDataInputStream in = fs.open(file); OutputStream out = Files.newOutputStream(target.toPath())) {
            in.transferTo(out);
        }
        FETCHED.addAndGet(length);
    }

    /** A hard link of {@code from} at {@code to}, or a copy where the two are on different file systems. */
    static void linkOrCopy(File from, File to) throws IOException {
        try {
            Files.createLink(to.toPath(), from.toPath());
        } catch (UnsupportedOperationException | IOException e) {
            if (!from.isFile()) {
                throw new IOException("no local table file " + from, e);
            }
            try (InputStream in = Files.newInputStream(from.toPath())) {
                Files.copy(in, to.toPath(), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** Where the kept files go: a directory under Spark's local directories, made again if they were deleted. */
    private static File directory() throws IOException {
        if (dir == null || !dir.isDirectory()) {
            dir = LocalDirs.newDirectory("sluice-checkpointed");
            FILES.clear();
            NEWEST.clear();
        }
        return dir;
    }
}
