package io.sluice.dstream.internal.sink;

import io.sluice.rdd.Time;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.spark.api.java.JavaRDD;

/**
 * {@code saveAsTextFiles}: one directory of text files per batch, committed by {@link BatchFileCommit}. On the
 * local file system the tasks write the part files directly ({@link PartFiles}); elsewhere (HDFS, object
 * stores) Spark's {@code saveAsTextFile} and its Hadoop output committer write them.
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
        Configuration conf = rdd.context().hadoopConfiguration();
        org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(directory);
        var fs = target.getFileSystem(conf);
        boolean local = fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem;
        BatchFileCommit.commit(conf, directory, staging -> {
            if (local) {
                PartFiles.write(rdd, java.nio.file.Path.of(fs.makeQualified(new org.apache.hadoop.fs.Path(staging))
                        .toUri()));
            } else {
                rdd.saveAsTextFile(staging);
            }
        });
    }
}
