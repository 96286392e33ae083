package io.sluice.dstream.internal.source.file;

import io.sluice.dstream.internal.InputOperator;
import io.sluice.dstream.internal.OperatorException;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.source.BadInputException;
import io.sluice.dstream.internal.source.SourceSettings;
import io.sluice.rdd.Time;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stream of the files that appear in a directory (any Hadoop file system path, globs allowed): each batch
 * lists the directory, takes the new, stable files ({@link FileSelection}) and reads them. Each file is read
 * once; the files taken are the source's position in the checkpoint, so a restarted driver neither reads a file
 * twice nor misses one that arrived while it was down. A file that disappears before it is read fails the batch,
 * naming the source, the batch and the file, or under the skip policy counts as one skipped record.
 */
public final class FileInputOperator<T> extends InputOperator<T> {
    private static final Logger LOG = LoggerFactory.getLogger(FileInputOperator.class);

    /** Reads the batch's files into an RDD (on the driver: it builds the RDD, the executors read). */
    public interface FileReader<T> {
        JavaRDD<T> read(List<FileEntry> files, Time time, BatchCounters counters, String source);
    }

    private final String directory;
    private final Function<Path, Boolean> filter;
    private final boolean newFilesOnly;
    private final SourceSettings settings;
    private final FileReader<T> reader;
    private final FileSelection selection;
    private final NavigableMap<Time, BatchCounters> counters = new ConcurrentSkipListMap<>();
    private volatile boolean restored;

    public FileInputOperator(StreamGraph graph, String kind, String directory, Function<Path, Boolean> filter,
            boolean newFilesOnly, SourceSettings settings, FileReader<T> reader) {
        super(graph, kind, List.of()); // the filter runs on the driver only
        if (directory == null || directory.isBlank()) {
            throw new IllegalArgumentException(kind + " needs a directory");
        }
        this.directory = directory;
        this.filter = filter;
        this.newFilesOnly = newFilesOnly;
        this.settings = settings;
        this.reader = reader;
        long minAge = settings.minFileAgeMillis() >= 0 ? settings.minFileAgeMillis() : graph.batchInterval().toMillis();
        this.selection = new FileSelection(minAge, Long.MIN_VALUE);
    }

    @Override
    public void start() {
        if (newFilesOnly && !restored) {
            selection.ignoreUpTo(zeroTime().milliseconds());
        }
    }

    @Override
    protected Optional<JavaRDD<T>> compute(Time time) {
        List<FileEntry> files = selection.select(time, list(time));
        BatchCounters batch = new BatchCounters(graph().sparkContext(), describe() + " @ " + time.milliseconds());
        counters.put(time, batch);
        List<FileEntry> present = new ArrayList<>();
        for (FileEntry f : files) {
            if (exists(f, time)) {
                present.add(f);
            } else if (settings.badRecords() == SourceSettings.BadRecordPolicy.SKIP) {
                LOG.warn("{}: file {} of batch {} disappeared before it was read; skipped ({}=skip)", describe(),
                        f.path(), time, SourceSettings.BAD_RECORDS);
                batch.skipOnDriver(f.path() + "#missing");
            } else {
                throw new OperatorException(this, time, new BadInputException("the file " + f.path()
                        + " disappeared before it was read (set " + SourceSettings.BAD_RECORDS
                        + "=skip to skip and count such files)"));
            }
        }
        if (present.isEmpty()) {
            return Optional.of(graph().sparkContext().emptyRDD());
        }
        return Optional.of(reader.read(present, time, batch, describe()));
    }

    private List<FileEntry> list(Time time) {
        List<FileEntry> result = new ArrayList<>();
        try {
            Path dir = new Path(directory);
            FileSystem fs = dir.getFileSystem(graph().sparkContext().hadoopConfiguration());
            FileStatus[] dirs = fs.globStatus(dir);
            if (dirs == null) {
                return result; // the directory does not exist (yet): no new files
            }
            for (FileStatus d : dirs) {
                FileStatus[] entries = d.isDirectory() ? fs.listStatus(d.getPath()) : new FileStatus[] {d};
                for (FileStatus s : entries) {
                    Path p = s.getPath();
                    if (s.isFile() && !FileEntry.looksInProgress(p.getName()) && accepts(p, time)) {
                        result.add(new FileEntry(p.toString(), s.getLen(), s.getModificationTime()));
                    }
                }
            }
        } catch (IOException e) {
            throw new OperatorException(this, time, new IOException("cannot list " + directory + ": " + e, e));
        }
        return result;
    }

    private boolean accepts(Path path, Time time) {
        if (filter == null) {
            return true;
        }
        try {
            return Boolean.TRUE.equals(filter.call(path));
        } catch (Exception e) {
            throw new OperatorException(this, time, new IllegalStateException("the path filter failed on " + path, e));
        }
    }

    private boolean exists(FileEntry f, Time time) {
        try {
            Path p = new Path(f.path());
            return p.getFileSystem(graph().sparkContext().hadoopConfiguration()).exists(p);
        } catch (IOException e) {
            throw new OperatorException(this, time, e);
        }
    }

    @Override
    public Report report(Time time) {
        BatchCounters c = counters.get(time);
        return c == null ? Report.NONE : new Report(c.records(), c.skipped());
    }

    @Override
    protected void forgetOlderThan(Time oldestKept) {
        counters.headMap(oldestKept, true).clear();
        selection.forgetBatchesUpTo(oldestKept);
    }

    /** How many files this stream has taken and still remembers (its position's size). */
    public int filesTaken() {
        return selection.takenCount();
    }

    // ---- recovery: the taken files are the position -------------------------------------------------------

    @Override
    public boolean replayable() {
        return true;
    }

    @Override
    public Optional<String> positionAfter(Time time) {
        return Optional.ofNullable(selection.positionAfter(time));
    }

    @Override
    public void restorePositions(NavigableMap<Time, String> positions) {
        restored = true;
        selection.restore(positions);
    }

    Map<Time, BatchCounters> counters() {
        return counters;
    }
}
