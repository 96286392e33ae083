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
        Pending pending = begin(conf, directory);
        try {
            writer.writeTo(pending.staging());
            pending.commit();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("writing " + directory + " failed: " + e, e);
        } finally {
            pending.abort();
        }
    }

    /**
     * Starts a batch's output: deletes what an earlier attempt left in its staging directory, which the
     * output is then written into before {@link Pending#commit}.
     */
    public static Pending begin(Configuration conf, String directory) throws IOException {
        Path target = new Path(directory);
        FileSystem fs = target.getFileSystem(conf);
        Path staging = new Path(target.getParent(), "." + target.getName() + ".staging");
        if (fs.exists(staging)) {
            LOG.info("Deleting {}, left by an attempt of this batch that did not commit", staging);
            fs.delete(staging, true);
        }
        return new Pending(fs, staging, target);
    }

    /** A batch's output being written into its staging directory. */
    public static final class Pending {
        private final FileSystem fs;
        private final Path staging;
        private final Path target;

        private Pending(FileSystem fs, Path staging, Path target) {
            this.fs = fs;
            this.staging = staging;
            this.target = target;
        }

        public String staging() {
            return staging.toString();
        }

        /** The staging directory, qualified (a {@code file:} URI on the local file system). */
        public java.net.URI stagingUri() {
            return fs.makeQualified(staging).toUri();
        }

        /** Renames the staging directory to the batch's, replacing an earlier output of the same batch. */
        public void commit() throws IOException {
            if (fs.exists(target) && !fs.delete(target, true)) {
                throw new IOException("could not replace the earlier output " + target);
            }
            if (!fs.rename(staging, target)) {
                throw new IOException("could not rename " + staging + " to " + target);
            }
        }

        /** Deletes whatever is left in the staging directory (nothing after a commit). */
        public void abort() throws IOException {
            if (fs.exists(staging)) {
                fs.delete(staging, true);
            }
        }
    }
}
