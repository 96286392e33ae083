package io.sluice.state.internal.checkpoint;

import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.SparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Where a context's state checkpoints are, as every checkpointed state of the context shares it: the SparkContext
 * whose tasks write and read them, the checkpoint directory's root and file system, the Hadoop configuration the
 * tasks get, and what a restart decoded ahead ({@link StatePrefetch#none()} if nothing).
 */
public record CheckpointSite(SparkContext sc, String root, FileSystem fs, Broadcast<SerializableConfiguration> conf,
        StatePrefetch prefetch) {
}
