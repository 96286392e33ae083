package io.sluice.recovery.internal;

import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;

/**
 * File system access for checkpoints and logs, on any Hadoop file system (a local path, hdfs://, s3a://...).
 *
 * <p>Local paths use Hadoop's raw local file system: Sluice's files carry their own checksums, and the
 * checksumming wrapper would add a {@code .crc} file per file and buffer writes past {@code hsync}. It is
 * Sluice's {@link NioLocalFileSystem}, which sets permissions without starting a process.
 */
public final class HadoopFiles {
    private HadoopFiles() {
    }

    /** The file system of {@code path}, unwrapped from Hadoop's client-side checksums for local paths. */
    public static FileSystem fileSystem(Path path, Configuration conf) throws IOException {
        FileSystem fs = path.getFileSystem(conf);
        if (fs instanceof LocalFileSystem) {
            NioLocalFileSystem local = new NioLocalFileSystem();
            local.initialize(fs.getUri(), conf);
            return local;
        }
        return fs;
    }

    /** Makes what was written to {@code out} durable: fsync where the file system can, else flush to it. */
    public static void sync(FSDataOutputStream out) throws IOException {
        if (out.hasCapability(StreamCapabilities.HSYNC)) {
            out.hsync();
        } else {
            out.hflush();
        }
    }

    /**
     * Writes {@code target} so that readers see all of {@code bytes} or no file: a synced temp file, closed (on
     * HDFS, closing waits until the NameNode has the file's blocks complete), then renamed. On HDFS the rename
     * replaces an existing target in one NameNode operation; elsewhere the old target is deleted first, so a
     * crash between the two leaves the temp file only (readers fall back to an older checkpoint).
     */
    public static void writeAtomically(FileSystem fs, Path target, byte[] bytes) throws IOException {
        Path temp = new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + ".tmp");
        try {
            try (FSDataOutputStream out = fs.create(temp, true)) {
                out.write(bytes);
                sync(out);
            }
            if (fs instanceof DistributedFileSystem hdfs) {
                hdfs.rename(temp, target, Options.Rename.OVERWRITE);
                return;
            }
            if (fs.exists(target) && !fs.delete(target, false)) {
                throw new IOException("could not replace " + target);
            }
            if (!fs.rename(temp, target)) {
                throw new IOException("could not rename " + temp + " to " + target);
            }
        } catch (IOException | RuntimeException e) {
            deleteQuietly(fs, temp, e);
            throw e;
        }
    }

    // the file system that just failed a write usually fails the clean-up too: that must not hide the first error
    private static void deleteQuietly(FileSystem fs, Path temp, Exception cause) {
        try {
            fs.delete(temp, false);
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * How many bytes of {@code file} a reader can read through {@code in}. HDFS lists a file that is still open
     * (a write-ahead log segment of a running or crashed writer) with the length the NameNode last heard of (its
     * completed blocks, or the first sync of the last one), short of what was synced since; the input stream asks
     * the DataNodes for the length they can serve.
     */
    public static long readableLength(FileSystem fs, Path file, FSDataInputStream in) throws IOException {
        return in instanceof HdfsDataInputStream hdfs ? hdfs.getVisibleLength() : fs.getFileStatus(file).getLen();
    }

    /** Whether {@code name} is a temp file {@link #writeAtomically} left behind (a crash before its rename). */
    public static boolean isTemp(String name) {
        return name.startsWith(".") && name.endsWith(".tmp");
    }
}
