package io.sluice.dstream.source.internal.replay;

import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.RecordedSpan;
import io.sluice.dstream.source.SourceContext;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.source.internal.file.BatchCounters;
import io.sluice.dstream.source.internal.file.CountersByBatch;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Transforms;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.SerializableConfiguration;

/**
 * A recording of UTF-8 text lines, each with a timestamp a function extracts, replayed by batch time: each
 * line goes to the batch whose interval holds its timestamp ({@link Placement}: out of order within the
 * lateness is placed correctly, later follows {@code sluice.input.badRecords}). The recording is read once, in
 * one task per file, to index where each batch's lines lie ({@link FileIndex}); a batch then reads only its
 * ranges, one task per file that has lines of it. Plain (uncompressed) files, which the reader seeks in. It
 * replays by batch time, so a restart needs no position.
 */
public final class TimestampedTextSource implements InputSource<String> {
    private final String path;
    private final Function<String, Long> extractor;
    private final long interval;
    private final long lateness;
    private final CountersByBatch counters = new CountersByBatch();
    private volatile List<FileIndex> index;
    private volatile SourceSettings settings;
    private volatile Broadcast<SerializableConfiguration> conf;
    private volatile JavaSparkContext sc;
    private volatile String name;

    public TimestampedTextSource(String path, Function<String, Long> extractor, Duration interval, Duration lateness) {
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("a replay of text files needs the recording's path");
        }
        if (lateness.isNegative()) {
            throw new IllegalArgumentException("the lateness must not be negative, was " + lateness);
        }
        this.path = path;
        this.extractor = extractor;
        this.interval = interval.toMillis();
        this.lateness = lateness.toMillis();
    }

    @Override
    public Optional<RecordedSpan> recordedSpan(JavaSparkContext sc, java.util.function.Function<String,
            Optional<String>> setting) {
        List<FileIndex> files = index(sc, SourceSettings.from(key -> setting.apply(key).orElse(null)));
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (FileIndex f : files) {
            if (f.hasRecords()) {
                first = Math.min(first, f.firstTimestamp);
                last = Math.max(last, f.lastTimestamp);
            }
        }
        return first > last ? Optional.empty() : Optional.of(new RecordedSpan(new Time(first), new Time(last)));
    }

    @Override
    public void start(SourceContext context) {
        sc = context.sparkContext();
        name = context.name();
        settings = SourceSettings.from(context);
        index(sc, settings);
    }

    /** Reads the recording once to index it (on the first call: the span before the start, or the start). */
    private synchronized List<FileIndex> index(JavaSparkContext sc, SourceSettings settings) {
        if (index == null) {
            if (conf == null) {
                conf = sc.broadcast(new SerializableConfiguration(sc.hadoopConfiguration()));
            }
            List<String> paths = new ArrayList<>();
            for (FileStatus f : RecordedFiles.list(path, sc.hadoopConfiguration(), false)) {
                paths.add(f.getPath().toString());
            }
            if (paths.isEmpty()) {
                throw new IllegalArgumentException("the recording " + path + " holds no file");
            }
            Broadcast<SerializableConfiguration> hadoop = conf;
            Function<String, Long> ts = extractor;
            long step = interval;
            long late = lateness;
            int maxLength = settings.maxLineLength();
            sc.setJobDescription("index the recording " + path);
            index = List.copyOf(sc.parallelize(paths, paths.size()).map(p -> {
                Path file = new Path(p);
                try (var in = file.getFileSystem(hadoop.value().value()).open(file)) {
                    return FileIndex.build(p, in, ts, step, late, maxLength);
                }
            }).collect());
            sc.setJobDescription(null);
        }
        return index;
    }

    @Override
    public Optional<JavaRDD<String>> compute(Time time) {
        List<String> segments = new ArrayList<>();
        for (FileIndex f : index) {
            FileIndex.Segment s = f.segment(time.milliseconds());
            if (s != null) {
                segments.add(s.encode());
            }
        }
        BatchCounters batch = counters.open(sc, name, time);
        if (segments.isEmpty()) {
            return Optional.of(sc.emptyRDD());
        }
        SegmentLines.Reading reading = new SegmentLines.Reading(extractor, interval, lateness,
                settings.maxLineLength(), settings.badRecords(), name + " at batch " + time);
        Broadcast<SerializableConfiguration> hadoop = conf;
        CollectionAccumulator<String> read = batch.readCounts();
        CollectionAccumulator<BatchCounters.BadLine> skipped = batch.skippedLines();
        CollectionAccumulator<BatchCounters.BadLine> repaired = batch.repairedLines();
        return Optional.of(Transforms.mapPartitions(sc.parallelize(segments, segments.size()), it -> {
            if (!it.hasNext()) {
                return Collections.emptyIterator();
            }
            FileIndex.Segment s = FileIndex.Segment.decode(it.next());
            Path file = new Path(s.path());
            return new SegmentLines(s, file.getFileSystem(hadoop.value().value()).open(file), reading, read, skipped,
                    repaired);
        }, false));
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
