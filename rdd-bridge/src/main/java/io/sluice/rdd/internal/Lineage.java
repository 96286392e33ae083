package io.sluice.rdd.internal;

import org.apache.spark.api.java.JavaRDDLike;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.StorageLevel;

/**
 * Cuts an RDD's lineage: to the checkpoint directory when the SparkContext has one (survives executor and
 * driver loss), else with Spark's local checkpointing (blocks on executors; survives nothing but keeps
 * lineage short, so long-running streams never die of deep lineage).
 *
 * <p>The cut happens when the next job computes the RDD; the RDD is persisted first so that job does not
 * compute it twice.
 */
public final class Lineage {
    private Lineage() {
    }

    public static void cut(JavaRDDLike<?, ?> rdd) {
        RDD<?> r = rdd.rdd();
        if (r.context().getCheckpointDir().isDefined()) {
            if (r.getStorageLevel().equals(StorageLevel.NONE())) {
                r.persist(StorageLevel.MEMORY_ONLY_SER());
            }
            r.checkpoint();
        } else {
            r.localCheckpoint();
        }
    }

    /**
     * Lets go of an RDD nothing will read again: unpersists it and, if it was cut to the checkpoint directory,
     * deletes its files there (Spark keeps them forever by default, so a long-running stream would fill the
     * directory with one copy of its state per cut).
     */
    public static void discard(JavaRDDLike<?, ?> rdd) {
        RDD<?> r = rdd.rdd();
        if (r.isLocallyCheckpointed()) {
            // RDD.unpersist warns for every locally checkpointed RDD that its lineage cannot be recomputed: true,
            // and expected here, where nothing reads the RDD again (one warning per cut, 122 in a 600-batch
            // replay). The context's own unpersist removes the same blocks and registration without it.
            r.context().unpersistRDD(r.id(), false);
        } else if (!r.getStorageLevel().equals(StorageLevel.NONE())) {
            r.unpersist(false);
        }
        scala.Option<String> file = r.getCheckpointFile();
        if (file.isDefined()) {
            org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.get());
            try {
                path.getFileSystem(r.context().hadoopConfiguration()).delete(path, true);
            } catch (java.io.IOException e) {
                // Only space is at stake: the files are never read again. Leave them rather than fail a batch.
                org.slf4j.LoggerFactory.getLogger(Lineage.class).warn("Could not delete old checkpoint {}", path, e);
            }
        }
    }

    /** Whether the RDD will be or has been cut. */
    public static boolean isCut(JavaRDDLike<?, ?> rdd) {
        return rdd.rdd().isCheckpointed() || rdd.rdd().getCheckpointFile().isDefined()
                || rdd.rdd().checkpointData().isDefined();
    }

    /** How many RDDs deep the lineage of {@code rdd} is, counting through every dependency. */
    public static int depth(RDD<?> rdd) {
        int deepest = 0;
        scala.collection.Iterator<org.apache.spark.Dependency<?>> deps = rdd.dependencies().iterator();
        while (deps.hasNext()) {
            deepest = Math.max(deepest, depth(deps.next().rdd()));
        }
        return deepest + 1;
    }
}
