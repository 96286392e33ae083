package io.sluice.dstream.internal.sink;

import io.sluice.rdd.Time;
import java.io.IOException;
import org.apache.spark.api.java.JavaRDD;

/** {@code saveAsTextFiles}: one directory of text files per batch, committed by {@link BatchFileCommit}. */
public final class TextFileSink {
    private TextFileSink() {
    }

    /** Spark Streaming's naming: {@code prefix-<batch ms>[.suffix]}. */
    public static String batchPath(String prefix, String suffix, Time time) {
        String base = prefix + "-" + time.milliseconds();
        return suffix == null || suffix.isEmpty() ? base : base + "." + suffix;
    }

    public static void save(JavaRDD<?> rdd, String directory) throws IOException {
        BatchFileCommit.commit(rdd.context().hadoopConfiguration(), directory,
                staging -> rdd.saveAsTextFile(staging));
    }
}
