package io.sluice.dstream.internal.sink;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one batch's output directory atomically under its batch-time-derived name: the output is written
 * to a staging directory next to the target ({@code .<name>.staging}), then renamed. Readers see the
 * whole batch or nothing, and a batch that runs again (after a task retry or a driver restart) replaces its
 * directory rather than adding to it: with a replayable source, output is exactly once per batch.
 *
 * <p>A crash between writing and renaming leaves only a staging directory, hidden by its leading dot
 * (Hadoop and Spark readers skip such files); the batch runs again after the restart, and its commit
 * deletes the staging directory the earlier attempt left. The name is fixed per batch, so that finding it costs
 * one lookup, not a listing of a directory that holds every batch's output.
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
        Path staging = new Path(parent, "." + target.getName() + ".staging");
        if (fs.exists(staging)) {
            LOG.info("Deleting {}, left by an attempt of this batch that did not commit", staging);
            fs.delete(staging, true);
        }
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
}
