package io.sluice.recovery.internal;

import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;

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

    /** Writes {@code target} so that readers see all of {@code bytes} or no file: a synced temp file, renamed. */
    public static void writeAtomically(FileSystem fs, Path target, byte[] bytes) throws IOException {
        Path temp = new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + ".tmp");
        try {
            try (FSDataOutputStream out = fs.create(temp, true)) {
                out.write(bytes);
                sync(out);
            }
            if (fs.exists(target) && !fs.delete(target, false)) {
                throw new IOException("could not replace " + target);
            }
            if (!fs.rename(temp, target)) {
                throw new IOException("could not rename " + temp + " to " + target);
            }
        } finally {
            if (fs.exists(temp)) {
                fs.delete(temp, false);
            }
        }
    }

    /** Whether {@code name} is a temp file {@link #writeAtomically} left behind (a crash before its rename). */
    public static boolean isTemp(String name) {
        return name.startsWith(".") && name.endsWith(".tmp");
    }
}
