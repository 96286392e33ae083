package io.sluice.dstream.source.internal.file;

import io.sluice.rdd.internal.Transforms;
import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.CollectionAccumulator;
import scala.Tuple2;

/**
 * Reads the files of a {@code fileStream} with a Hadoop input format, one Hadoop RDD per file, as Spark
 * Streaming does. The format owns record parsing; the records of each split are counted as a task reads it to
 * the end, keyed by file and split so that a split read twice counts once. Missing files are handled by the
 * operator before the read.
 */
public final class HadoopFiles<K, V, F extends InputFormat<K, V>> implements FileSource.FileReader<Tuple2<K, V>> {
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
        CollectionAccumulator<String> read = counters.readCounts();
        List<JavaRDD<Tuple2<K, V>>> rdds = new ArrayList<>();
        for (FileEntry f : files) {
            JavaPairRDD<K, V> file = sc.newAPIHadoopFile(f.path(), formatClass, keyClass, valueClass,
                    conf != null ? conf : sc.hadoopConfiguration());
            String path = f.path();
            rdds.add(Transforms.mapPartitionsWithIndex(file,
                    (split, records) -> new Counting<>(records, path + "@" + split, read), true));
        }
        @SuppressWarnings("unchecked")
        JavaRDD<Tuple2<K, V>>[] all = rdds.toArray(JavaRDD[]::new);
        return rdds.size() == 1 ? rdds.get(0) : sc.union(all);
    }

    /** Passes records through; once they are exhausted, reports {@code key=count}. */
    private static final class Counting<T> implements Iterator<T> {
        private final Iterator<T> records;
        private final String key;
        private final CollectionAccumulator<String> read;
        private long count;
        private boolean reported;

        Counting(Iterator<T> records, String key, CollectionAccumulator<String> read) {
            this.records = records;
            this.key = key;
            this.read = read;
        }

        @Override
        public boolean hasNext() {
            boolean more = records.hasNext();
            if (!more && !reported) {
                reported = true;
                read.add(key + "=" + count);
            }
            return more;
        }

        @Override
        public T next() {
            T next = records.next();
            count++;
            return next;
        }
    }
}
