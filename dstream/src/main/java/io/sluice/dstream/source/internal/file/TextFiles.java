package io.sluice.dstream.source.internal.file;

import io.sluice.rdd.internal.Transforms;
import io.sluice.dstream.source.internal.BadInputException;
import io.sluice.dstream.source.internal.LineReader;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.rdd.Time;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Reads the files of a text file stream: one task per file, strict UTF-8 lines. A line that is not UTF-8 or is
 * longer than the maximum, and a file gone by the time its task opens it, fail the task with a message naming
 * the source, the batch, the file and the line, or under the skip policy are skipped and counted.
 */
public final class TextFiles implements FileSource.FileReader<String> {
    private final JavaSparkContext sc;
    private final SourceSettings settings;
    private Broadcast<SerializableConfiguration> conf;

    public TextFiles(JavaSparkContext sc, SourceSettings settings) {
        this.sc = sc;
        this.settings = settings;
    }

    @Override
    public JavaRDD<String> read(List<FileEntry> files, Time time, BatchCounters counters, String source) {
        if (conf == null) {
            conf = sc.broadcast(new SerializableConfiguration(sc.hadoopConfiguration()));
        }
        List<String> paths = new ArrayList<>();
        files.forEach(f -> paths.add(f.path()));
        Broadcast<SerializableConfiguration> hadoop = conf;
        String where = source + " at batch " + time;
        int maxLength = settings.maxLineLength();
        boolean skip = settings.badRecords() == SourceSettings.BadRecordPolicy.SKIP;
        CollectionAccumulator<String> read = counters.readCounts();
        CollectionAccumulator<String> skipped = counters.skippedKeys();
        return Transforms.mapPartitions(sc.parallelize(paths, paths.size()), it -> {
            if (!it.hasNext()) {
                return Collections.emptyIterator();
            }
            return new Lines(it.next(), hadoop.value(), where, maxLength, skip, read, skipped);
        }, false);
    }

    /** The good lines of one file, read lazily; bad ones are skipped (and counted) or fail the task. */
    private static final class Lines implements Iterator<String> {
        private final String path;
        private final String where;
        private final boolean skip;
        private final CollectionAccumulator<String> read;
        private final CollectionAccumulator<String> skipped;
        private InputStream in;
        private LineReader reader;
        private String next;
        private long count;
        private boolean done;

        Lines(String path, SerializableConfiguration conf, String where, int maxLength, boolean skip,
                CollectionAccumulator<String> read, CollectionAccumulator<String> skipped) throws IOException {
            this.path = path;
            this.where = where;
            this.skip = skip;
            this.read = read;
            this.skipped = skipped;
            Path p = new Path(path);
            try {
                in = p.getFileSystem(conf.value()).open(p);
                reader = new LineReader(in, maxLength, false);
            } catch (FileNotFoundException e) {
                bad(path + "#missing", "the file " + path + " disappeared before it was read");
                done = true;
            }
        }

        @Override
        public boolean hasNext() {
            while (next == null && !done) {
                try {
                    LineReader.Line line = reader.next();
                    if (line.isEnd()) {
                        done = true;
                        in.close();
                        read.add(path + "=" + count);
                    } else if (line.problem() != null) {
                        bad(path + "#" + line.number(), path + ": " + line.problem());
                    } else {
                        next = line.text();
                        count++;
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(where + ": cannot read " + path + ": " + e, e);
                }
            }
            return next != null;
        }

        @Override
        public String next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            String line = next;
            next = null;
            return line;
        }

        private void bad(String key, String problem) {
            if (!skip) {
                throw new BadInputException(where + ": " + problem + " (set " + SourceSettings.BAD_RECORDS
                        + "=skip to skip and count such records)");
            }
            skipped.add(key);
        }
    }
}
