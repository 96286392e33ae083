package io.sluice.dstream.internal.sink;

import io.sluice.rdd.Time;
import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;

/**
 * Writes one batch's RDD as text into a directory named after the batch, committed by a rename: readers see
 * the whole batch or nothing, and a batch that runs again replaces its directory rather than duplicating it.
 */
public final class TextFileSink {
    private TextFileSink() {
    }

    /** Spark Streaming's naming: {@code prefix-<batch ms>[.suffix]}. */
    public static String batchPath(String prefix, String suffix, Time time) {
        String base = prefix + "-" + time.milliseconds();
        return suffix == null || suffix.isEmpty() ? base : base + "." + suffix;
    }

    public static void save(JavaRDD<?> rdd, String directory) throws IOException {
        Path target = new Path(directory);
        Path staging = new Path(target.getParent(), "." + target.getName() + ".staging-" + UUID.randomUUID());
        FileSystem fs = target.getFileSystem(rdd.context().hadoopConfiguration());
        try {
            rdd.saveAsTextFile(staging.toString());
            if (fs.exists(target)) {
                fs.delete(target, true);
            }
            if (!fs.rename(staging, target)) {
                throw new IOException("could not rename " + staging + " to " + target);
            }
        } finally {
            if (fs.exists(staging)) {
                fs.delete(staging, true);
            }
        }
    }
}
