package io.sluice.dstream.internal.sink;

import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one batch's output directory atomically under its batch-time-derived name: the output is written
 * to a staging directory next to the target ({@code .<name>.staging-<uuid>}), then renamed. Readers see the
 * whole batch or nothing, and a batch that runs again (after a task retry or a driver restart) replaces its
 * directory rather than adding to it: with a replayable source, output is exactly once per batch.
 *
 * <p>A crash between writing and renaming leaves only a staging directory, hidden by its leading dot
 * (Hadoop and Spark readers skip such files); the batch runs again after the restart, and its commit
 * deletes the staging directories earlier attempts left.
 */
public final class BatchFileCommit {
    private static final Logger LOG = LoggerFactory.getLogger(BatchFileCommit.class);

    /** Writes a batch's output into the directory it is given (which does not exist yet). */
    @FunctionalInterface
    public interface Writer {
        void writeTo(String stagingDirectory) throws Exception;
    }

    private BatchFileCommit() {
    }

    public static void commit(Configuration conf, String directory, Writer writer) throws IOException {
        Path target = new Path(directory);
        FileSystem fs = target.getFileSystem(conf);
        Path parent = target.getParent();
        String stagingPrefix = "." + target.getName() + ".staging-";
        deleteStaging(fs, parent, stagingPrefix);
        Path staging = new Path(parent, stagingPrefix + UUID.randomUUID());
        try {
            writer.writeTo(staging.toString());
            if (fs.exists(target) && !fs.delete(target, true)) {
                throw new IOException("could not replace the earlier output " + target);
            }
            if (!fs.rename(staging, target)) {
                throw new IOException("could not rename " + staging + " to " + target);
            }
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("writing " + target + " failed: " + e, e);
        } finally {
            if (fs.exists(staging)) {
                fs.delete(staging, true);
            }
        }
    }

    /** Deletes staging directories of this target that a crashed attempt left behind. */
    private static void deleteStaging(FileSystem fs, Path parent, String stagingPrefix) throws IOException {
        if (parent == null || !fs.exists(parent)) {
            return;
        }
        for (FileStatus status : fs.listStatus(parent, p -> p.getName().startsWith(stagingPrefix))) {
            LOG.info("Deleting {}, left by an attempt of this batch that did not commit", status.getPath());
            fs.delete(status.getPath(), true);
        }
    }
}
