package io.sluice.dstream.source.internal.replay;

import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.RecordedSpan;
import io.sluice.dstream.source.SourceContext;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.source.internal.file.BatchCounters;
import io.sluice.dstream.source.internal.file.CountersByBatch;
import io.sluice.dstream.source.internal.file.FileEntry;
import io.sluice.dstream.source.internal.file.TextFiles;
import io.sluice.rdd.Time;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A recording kept as one directory per batch time: {@code root/<time>/} holds the text files of the batch at
 * that time, the time written as epoch milliseconds or an ISO-8601 instant ({@code 2026-12-01T00:00:01Z}). A
 * directory whose time is between two batch times goes to the batch after it (the batch whose interval holds
 * it). Lines are read as a text file stream reads them, with the same bad-record policy. Directories are listed
 * once, when the source starts (or a replay asks for its span); a batch lists only its own directories.
 */
public final class BatchDirectoriesSource implements InputSource<String> {
    private static final Logger LOG = LoggerFactory.getLogger(BatchDirectoriesSource.class);

    private final String root;
    private final long interval;
    private final CountersByBatch counters = new CountersByBatch();
    private volatile NavigableMap<Long, List<String>> directories; // batch time -> its directories
    private volatile long spanFirst;
    private volatile long spanLast;
    private volatile TextFiles reader;
    private volatile JavaSparkContext sc;
    private volatile String name;

    public BatchDirectoriesSource(String root, Duration interval) {
        if (root == null || root.isBlank()) {
            throw new IllegalArgumentException("a replay of batch directories needs the recording's root directory");
        }
        this.root = root;
        this.interval = interval.toMillis();
    }

    /** The time a directory name stands for, or null if it names none. */
    static Long timeOf(String name) {
        try {
            return Long.parseLong(name);
        } catch (NumberFormatException notMillis) {
            try {
                return Instant.parse(name).toEpochMilli();
            } catch (DateTimeParseException notInstant) {
                return null;
            }
        }
    }

    private synchronized NavigableMap<Long, List<String>> directories(JavaSparkContext sc) {
        if (directories == null) {
            NavigableMap<Long, List<String>> byBatch = new TreeMap<>();
            NavigableMap<Long, Long> times = new TreeMap<>();
            for (FileStatus d : RecordedFiles.list(root, sc.hadoopConfiguration(), true)) {
                Long time = timeOf(d.getPath().getName());
                if (time == null) {
                    LOG.warn("{}: the directory {} is not named by a time (epoch milliseconds or an ISO-8601 "
                            + "instant): not replayed", root, d.getPath());
                    continue;
                }
                long batch = Placement.batchOf(time, interval);
                byBatch.computeIfAbsent(batch, b -> new ArrayList<>()).add(d.getPath().toString());
                times.put(time, batch);
            }
            if (times.isEmpty()) {
                throw new IllegalArgumentException("the recording " + root + " holds no directory named by a time");
            }
            directories = byBatch;
            spanFirst = times.firstKey();
            spanLast = times.lastKey();
        }
        return directories;
    }

    @Override
    public Optional<RecordedSpan> recordedSpan(JavaSparkContext sc,
            java.util.function.Function<String, Optional<String>> setting) {
        directories(sc);
        return Optional.of(new RecordedSpan(new Time(spanFirst), new Time(spanLast)));
    }

    @Override
    public void start(SourceContext context) {
        sc = context.sparkContext();
        name = context.name();
        reader = new TextFiles(sc, SourceSettings.from(context));
        directories(sc);
    }

    @Override
    public Optional<JavaRDD<String>> compute(Time time) {
        List<String> dirs = directories.getOrDefault(time.milliseconds(), List.of());
        List<FileEntry> files = new ArrayList<>();
        try {
            for (String dir : dirs) {
                Path p = new Path(dir);
                FileSystem fs = p.getFileSystem(sc.hadoopConfiguration());
                for (FileStatus f : fs.listStatus(p)) {
                    if (f.isFile() && !FileEntry.looksInProgress(f.getPath().getName())) {
                        files.add(new FileEntry(f.getPath().toString(), f.getLen(), f.getModificationTime()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(new IOException("cannot list " + dirs + ": " + e, e));
        }
        BatchCounters batch = counters.open(sc, name, time);
        if (files.isEmpty()) {
            return Optional.of(sc.emptyRDD());
        }
        files.sort((a, b) -> a.path().compareTo(b.path()));
        return Optional.of(reader.read(files, time, batch, name));
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
    }

    @Override
    public boolean replayable() {
        return true;
    }
}
