package io.sluice.dstream.source.internal.replay;

import io.sluice.dstream.source.internal.BadInputException;
import io.sluice.dstream.source.internal.LineReader;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.source.internal.file.BatchCounters;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.util.CollectionAccumulator;

/**
 * The lines of one batch in one recorded file, read in a task from the batch's {@link FileIndex.Segment}: the
 * lines of the range are placed as the index placed them, and those of this batch come out. A late line, one
 * that is not valid UTF-8 or too long, or one without a timestamp follows the bad-record policy in the batch it
 * was placed in: late and repaired lines are kept and counted as repaired under {@code replace}; a line without
 * a timestamp cannot be repaired and is skipped (counted) unless the policy is {@code fail}, which fails the
 * task naming the source, the batch, the file and the line.
 */
final class SegmentLines implements Iterator<String> {
    /** What every segment reader of a source shares. */
    record Reading(Function<String, Long> extractor, long interval, long lateness, int maxLineLength,
            SourceSettings.BadRecordPolicy policy, String where) implements java.io.Serializable {
    }

    private final FileIndex.Segment segment;
    private final Reading reading;
    private final CollectionAccumulator<String> read;
    private final CollectionAccumulator<BatchCounters.BadLine> skipped;
    private final CollectionAccumulator<BatchCounters.BadLine> repaired;
    private final InputStream in;
    private final LineReader reader;
    private final Placement placement;
    private String next;
    private long count;
    private boolean done;

    SegmentLines(FileIndex.Segment segment, FSDataInputStream in, Reading reading, CollectionAccumulator<String> read,
            CollectionAccumulator<BatchCounters.BadLine> skipped,
            CollectionAccumulator<BatchCounters.BadLine> repaired) throws IOException {
        this.segment = segment;
        this.reading = reading;
        this.read = read;
        this.skipped = skipped;
        this.repaired = repaired;
        in.seek(segment.start());
        this.in = in;
        this.reader = new LineReader(in, reading.maxLineLength(), false, true);
        this.placement = new Placement(reading.interval(), reading.lateness(), segment.newest());
    }

    @Override
    public boolean hasNext() {
        try {
            while (next == null && !done) {
                if (segment.start() + reader.offset() >= segment.end()) {
                    finish();
                    break;
                }
                LineReader.Line line = reader.next();
                if (line.isEnd()) {
                    finish();
                    break;
                }
                next = take(line);
            }
        } catch (IOException e) {
            throw new IllegalStateException(reading.where() + ": cannot read " + segment.path() + ": " + e, e);
        }
        return next != null;
    }

    /** The line's text if it belongs to this batch and is kept, else null (counted as the policy says). */
    private String take(LineReader.Line line) {
        long number = segment.linesBefore() + line.number();
        Long ts = FileIndex.timestampOf(line, reading.extractor());
        if (ts == null) {
            long batch = placement.firstOpen();
            if ((batch == Placement.NONE ? segment.firstBatch() : batch) == segment.batch()) {
                bad(number, "line " + number + " has no timestamp the extractor can read", false);
            }
            return null;
        }
        boolean late = placement.isLate(ts);
        long open = placement.firstOpen();
        if (placement.place(ts) != segment.batch()) {
            return null;
        }
        String problem = late ? "line " + number + " is late: its timestamp " + ts + " belongs to a batch closed "
                + "before it was read (last open batch " + open + ", lateness " + reading.lateness() + " ms)"
                : line.problem() == null ? null : line.problem().replaceFirst("^line \\d+", "line " + number);
        if (problem != null && !bad(number, problem, true)) {
            return null;
        }
        count++;
        return line.text();
    }

    /** Counts a bad line or fails; returns whether it is kept (repaired). */
    private boolean bad(long number, String problem, boolean repairable) {
        if (reading.policy() == SourceSettings.BadRecordPolicy.FAIL) {
            throw new BadInputException(reading.where() + ": " + segment.path() + ": " + problem + " (set "
                    + SourceSettings.BAD_RECORDS + "=replace or skip to keep the job running and count such records)");
        }
        BatchCounters.BadLine bad = new BatchCounters.BadLine(segment.path(), number, problem);
        if (repairable && reading.policy() == SourceSettings.BadRecordPolicy.REPLACE) {
            repaired.add(bad);
            return true;
        }
        skipped.add(bad);
        return false;
    }

    private void finish() throws IOException {
        done = true;
        in.close();
        read.add(segment.path() + "=" + count);
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
}
