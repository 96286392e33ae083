package io.sluice.dstream.source.internal.file;

import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.SourceContext;
import io.sluice.dstream.source.internal.BadInputException;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.rdd.Time;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;

/**
 * A stream of the files that appear in a directory (any Hadoop file system path, globs allowed): each batch
 * lists the directory, takes the new, stable files ({@link FileSelection}) and reads them. Each file is read
 * once; the files taken are the source's position in the checkpoint, so a restarted driver neither reads a file
 * twice nor misses one that arrived while it was down. A file that disappears before it is read counts as one
 * skipped record, or under the {@code fail} policy fails the batch, naming the source, the batch and the file.
 */
public final class FileSource<T> implements InputSource<T> {
    /** Reads the batch's files into an RDD (on the driver: it builds the RDD, the executors read). */
    public interface FileReader<T> {
        JavaRDD<T> read(List<FileEntry> files, Time time, BatchCounters counters, String source);
    }

    private final String directory;
    private final Function<Path, Boolean> filter;
    private final boolean newFilesOnly;
    private final java.util.function.Function<SourceSettings, FileReader<T>> readerFor;
    private final CountersByBatch counters = new CountersByBatch();
    private volatile SourceSettings settings;
    private volatile FileReader<T> reader;
    private volatile FileSelection selection;
    private volatile JavaSparkContext sc;
    private volatile String name;

    /** {@code readerFor} makes the reader at start, from the source settings read then. */
    public FileSource(String kind, String directory, Function<Path, Boolean> filter, boolean newFilesOnly,
            java.util.function.Function<SourceSettings, FileReader<T>> readerFor) {
        if (directory == null || directory.isBlank()) {
            throw new IllegalArgumentException(kind + " needs a directory");
        }
        this.directory = directory;
        this.filter = filter;
        this.newFilesOnly = newFilesOnly;
        this.readerFor = readerFor;
    }

    /** Files taken before a restart are the position: the restored selection goes on from there. */
    @Override
    public void start(SourceContext context) {
        sc = context.sparkContext();
        name = context.name();
        settings = SourceSettings.from(context);
        reader = readerFor.apply(settings);
        FileSelection s = new FileSelection(settings.minFileAgeMillis(), Long.MIN_VALUE);
        NavigableMap<Time, String> positions = context.restoredPositions();
        if (!positions.isEmpty()) {
            s.restore(positions);
        } else if (newFilesOnly) {
            s.ignoreUpTo(context.grid().zero().milliseconds());
        }
        selection = s;
    }

    @Override
    public Optional<JavaRDD<T>> compute(Time time) {
        List<FileEntry> files = selection.select(time, list());
        BatchCounters batch = counters.open(sc, name, time);
        List<FileEntry> present = new ArrayList<>();
        for (FileEntry f : files) {
            if (exists(f)) {
                present.add(f);
            } else if (settings.badRecords() != SourceSettings.BadRecordPolicy.FAIL) {
                batch.skipOnDriver(new BatchCounters.BadLine(f.path(), -1, "the file " + f.path()
                        + " disappeared before it was read"));
            } else {
                throw new BadInputException("the file " + f.path() + " disappeared before it was read (set "
                        + SourceSettings.BAD_RECORDS + "=replace or skip to skip and count such files)");
            }
        }
        if (present.isEmpty()) {
            return Optional.of(sc.emptyRDD());
        }
        return Optional.of(reader.read(present, time, batch, name));
    }

    /** The engine names the stream and the batch in what this throws. */
    private List<FileEntry> list() {
        List<FileEntry> result = new ArrayList<>();
        try {
            Path dir = new Path(directory);
            FileSystem fs = dir.getFileSystem(sc.hadoopConfiguration());
            FileStatus[] dirs = fs.globStatus(dir);
            if (dirs == null) {
                return result; // the directory does not exist (yet): no new files
            }
            for (FileStatus d : dirs) {
                FileStatus[] entries = d.isDirectory() ? fs.listStatus(d.getPath()) : new FileStatus[] {d};
                for (FileStatus s : entries) {
                    Path p = s.getPath();
                    if (s.isFile() && !FileEntry.looksInProgress(p.getName()) && accepts(p)) {
                        result.add(new FileEntry(p.toString(), s.getLen(), s.getModificationTime()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(new IOException("cannot list " + directory + ": " + e, e));
        }
        return result;
    }

    private boolean accepts(Path path) {
        if (filter == null) {
            return true;
        }
        try {
            return Boolean.TRUE.equals(filter.call(path));
        } catch (Exception e) {
            throw new IllegalStateException("the path filter failed on " + path, e);
        }
    }

    private boolean exists(FileEntry f) {
        try {
            Path p = new Path(f.path());
            return p.getFileSystem(sc.hadoopConfiguration()).exists(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public BatchReport report(Time time) {
        return counters.report(time);
    }

    @Override
    public void batchDone(Time time) {
        counters.batchDone(name, time);
    }

    @Override
    public void forgetOlderThan(Time oldestKept) {
        counters.forgetOlderThan(oldestKept);
        selection.forgetBatchesUpTo(oldestKept);
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
}
