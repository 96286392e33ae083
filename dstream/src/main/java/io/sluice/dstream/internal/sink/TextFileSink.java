package io.sluice.dstream.internal.sink;

import io.sluice.dstream.internal.OutputOperation;
import io.sluice.rdd.Time;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.spark.api.java.JavaRDD;

/**
 * {@code saveAsTextFiles}: one directory of text files per batch, {@code prefix-<batch ms>[.suffix]}, committed
 * by {@link BatchFileCommit}. On the local file system the tasks write the part files directly ({@link
 * PartFiles}), and the output splits into those tasks and the commit (so a replay can run several batches' tasks
 * in one job); elsewhere (HDFS, object stores) Spark's {@code saveAsTextFile} and its Hadoop output committer
 * write them.
 */
public final class TextFileSink<T> implements OutputOperation.Action<T> {
    private final String prefix;
    private final String suffix;
    private volatile Boolean local; // null until splits() looked it up

    public TextFileSink(String prefix, String suffix) {
        this.prefix = prefix;
        this.suffix = suffix;
    }

    /** Spark Streaming's naming: {@code prefix-<batch ms>[.suffix]}. */
    public static String batchPath(String prefix, String suffix, Time time) {
        String base = prefix + "-" + time.milliseconds();
        return suffix == null || suffix.isEmpty() ? base : base + "." + suffix;
    }

    @Override
    public void run(JavaRDD<T> rdd, Time time) throws Exception {
        if (splits(rdd)) {
            OutputOperation.Split.run(split(rdd, time), rdd);
        } else {
            BatchFileCommit.commit(rdd.context().hadoopConfiguration(), batchPath(prefix, suffix, time),
                    rdd::saveAsTextFile);
        }
    }

    /** Whether the output is on the local file system: asked every batch, looked up once. */
    @Override
    public boolean splits(JavaRDD<T> rdd) {
        Boolean known = local;
        if (known == null) {
            try {
                var fs = new Path(prefix).getFileSystem(rdd.context().hadoopConfiguration());
                known = fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem;
            } catch (java.io.IOException e) {
                return false; // the whole run reports the problem
            }
            local = known;
        }
        return known;
    }

    @Override
    public OutputOperation.Split<T> split(JavaRDD<T> rdd, Time time) throws Exception {
        Configuration conf = rdd.context().hadoopConfiguration();
        BatchFileCommit.Pending pending = BatchFileCommit.begin(conf, batchPath(prefix, suffix, time));
        java.nio.file.Path staging = java.nio.file.Path.of(pending.stagingUri());
        return new OutputOperation.Split<>() {
            @Override
            public io.sluice.rdd.internal.Jobs.PartitionAction<T, ?> task() {
                return PartFiles.writer(staging);
            }

            @Override
            public void commit() throws Exception {
                PartFiles.markSuccess(staging);
                pending.commit();
            }

            @Override
            public void close() throws Exception {
                pending.abort();
            }
        };
    }
}
