package io.sluice.state.internal.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.sluice.rdd.internal.LocalDirs;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The table files this JVM last checkpointed, kept on local disk (hard links, so they cost no space while the
 * store still has them) so that a restore here (a restart on the same SparkContext, or an executor restoring a
 * partition it wrote) links them into the new store instead of fetching them. Per shared directory (an operator's
 * partition) only the files of the newest checkpoint written from this JVM are kept, in a folder named after the
 * checkpoint's root and that directory, each under its name there; they live under Spark's local directories and
 * go with them.
 */
public final class LocalTableFiles {
    private static final AtomicLong FETCHED = new AtomicLong();
    private static final AtomicLong REUSED = new AtomicLong();
    private static File dir; // guarded by the class

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
     * manifest}'s tables), and forgets those of older checkpoints of {@code sharedDir}.
     */
    static synchronized void keep(String root, String sharedDir, File checkpointDir, RocksManifest manifest)
            throws IOException {
        File folder = folderOf(root, sharedDir, true);
        Set<String> names = new HashSet<>();
        for (RocksManifest.Table t : manifest.tables()) {
            String name = nameOf(t.path());
            names.add(name);
            File kept = new File(folder, name);
            if (kept.length() != t.length()) {
                kept.delete();
                linkOrCopy(new File(checkpointDir, t.localName()), kept);
            }
        }
        File[] all = folder.listFiles();
        for (File f : all == null ? new File[0] : all) {
            if (!names.contains(f.getName())) {
                f.delete();
            }
        }
    }

    /** Puts table {@code t} of the checkpoint under {@code root} at {@code target}: a local copy, else fetched. */
    static void restore(FileSystem fs, Path root, RocksManifest.Table t, File target) throws IOException {
        File local;
        synchronized (LocalTableFiles.class) {
            File folder = folderOf(root.toString(), t.path().substring(0, t.path().lastIndexOf('/')), false);
            local = folder == null ? null : new File(folder, nameOf(t.path()));
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

    private static String nameOf(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** The folder of the kept files of {@code sharedDir} under {@code root}; null if not there and not made. */
    private static File folderOf(String root, String sharedDir, boolean make) throws IOException {
        if (dir == null || !dir.isDirectory()) {
            if (!make) {
                return null;
            }
            dir = LocalDirs.newDirectory("sluice-checkpointed");
        }
        File folder = new File(dir, UUID.nameUUIDFromBytes((root + "|" + sharedDir).getBytes(UTF_8)).toString());
        if (make) {
            Files.createDirectories(folder.toPath());
        }
        return folder;
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
}
