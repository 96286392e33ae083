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
 * Reads the files of a text file stream: one task per file, UTF-8 lines. A line that is not UTF-8 or is longer
 * than the maximum is kept repaired under the {@code replace} policy (malformed bytes decoded as U+FFFD, as
 * Spark Streaming's Hadoop {@code Text} does; a long line cut at the maximum), skipped under {@code skip}, and
 * fails the task under {@code fail} with a message naming the source, the batch, the file and the line; each is
 * counted. A file gone by the time its task opens it is skipped, or under {@code fail} fails the task.
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
        SourceSettings.BadRecordPolicy policy = settings.badRecords();
        CollectionAccumulator<String> read = counters.readCounts();
        CollectionAccumulator<BatchCounters.BadLine> skipped = counters.skippedLines();
        CollectionAccumulator<BatchCounters.BadLine> repaired = counters.repairedLines();
        return Transforms.mapPartitions(sc.parallelize(paths, paths.size()), it -> {
            if (!it.hasNext()) {
                return Collections.emptyIterator();
            }
            return new Lines(it.next(), hadoop.value(), where, maxLength, policy, read, skipped, repaired);
        }, false);
    }

    /** The lines of one file, read lazily; bad ones are repaired or skipped (and counted), or fail the task. */
    private static final class Lines implements Iterator<String> {
        private final String path;
        private final String where;
        private final boolean fail;
        private final CollectionAccumulator<String> read;
        private final CollectionAccumulator<BatchCounters.BadLine> skipped;
        private final CollectionAccumulator<BatchCounters.BadLine> repaired;
        private InputStream in;
        private LineReader reader;
        private String next;
        private long count;
        private boolean done;

        Lines(String path, SerializableConfiguration conf, String where, int maxLength,
                SourceSettings.BadRecordPolicy policy, CollectionAccumulator<String> read,
                CollectionAccumulator<BatchCounters.BadLine> skipped,
                CollectionAccumulator<BatchCounters.BadLine> repaired) throws IOException {
            this.path = path;
            this.where = where;
            this.fail = policy == SourceSettings.BadRecordPolicy.FAIL;
            this.read = read;
            this.skipped = skipped;
            this.repaired = repaired;
            Path p = new Path(path);
            try {
                in = p.getFileSystem(conf.value()).open(p);
                reader = new LineReader(in, maxLength, false, policy == SourceSettings.BadRecordPolicy.REPLACE);
            } catch (FileNotFoundException e) {
                bad(-1, "the file " + path + " disappeared before it was read");
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
                    } else if (line.isRepaired()) {
                        repaired.add(new BatchCounters.BadLine(path, line.number(), line.problem()));
                        next = line.text();
                        count++;
                    } else if (line.problem() != null) {
                        bad(line.number(), line.problem());
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

        private void bad(long line, String problem) {
            if (fail) {
                throw new BadInputException(where + ": " + (line < 0 ? "" : path + ": ") + problem + " (set "
                        + SourceSettings.BAD_RECORDS + "=replace or skip to keep the job running and count such "
                        + "records)");
            }
            skipped.add(new BatchCounters.BadLine(path, line, problem));
        }
    }
}
