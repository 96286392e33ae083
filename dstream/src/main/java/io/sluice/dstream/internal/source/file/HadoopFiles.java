package io.sluice.dstream.internal.source.file;

import io.sluice.dstream.internal.Rdds;
import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * Reads the files of a {@code fileStream} with a Hadoop input format, one Hadoop RDD per file, as Spark
 * Streaming does. The format owns record parsing, so records are not counted here (the batch reports 0, like
 * Spark Streaming's file stream); missing files are handled by the operator before the read.
 */
public final class HadoopFiles<K, V, F extends InputFormat<K, V>> implements FileInputOperator.FileReader<Tuple2<K, V>> {
    private final JavaSparkContext sc;
    private final Class<K> keyClass;
    private final Class<V> valueClass;
    private final Class<F> formatClass;
    private final Configuration conf;

    public HadoopFiles(JavaSparkContext sc, Class<K> keyClass, Class<V> valueClass, Class<F> formatClass,
            Configuration conf) {
        this.sc = sc;
        this.keyClass = keyClass;
        this.valueClass = valueClass;
        this.formatClass = formatClass;
        this.conf = conf;
    }

    @Override
    public JavaRDD<Tuple2<K, V>> read(List<FileEntry> files, Time time, BatchCounters counters, String source) {
        List<JavaPairRDD<K, V>> rdds = new ArrayList<>();
        for (FileEntry f : files) {
            rdds.add(sc.newAPIHadoopFile(f.path(), formatClass, keyClass, valueClass,
                    conf != null ? conf : sc.hadoopConfiguration()));
        }
        JavaPairRDD<K, V> all = rdds.size() == 1 ? rdds.get(0) : sc.union(rdds.toArray(JavaPairRDD[]::new));
        return Rdds.tuples(all);
    }
}
