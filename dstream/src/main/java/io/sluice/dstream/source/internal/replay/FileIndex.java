package io.sluice.dstream.source.internal.replay;

import io.sluice.dstream.source.internal.LineReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.function.Function;

/**
 * Where each batch's records lie in one recorded text file, made by reading the file once: for every batch
 * that has records in it, the byte range from its first to its last record, with the newest timestamp read
 * before that range and the lines before it, so that a reader starting there places every line exactly as a
 * reader from the start would ({@link Placement}). Lines without a timestamp belong to the first open batch
 * (before the first record: the first record's batch), where the bad-record policy handles them.
 */
public final class FileIndex implements Serializable {
    /** One batch's records in one file: what the reader of that batch needs. */
    record Segment(String path, long batch, long start, long end, long newest, long linesBefore, long firstBatch) {
        /** As one line of text, which tasks get (Kryo writes no records). */
        String encode() {
            return batch + "\t" + start + "\t" + end + "\t" + newest + "\t" + linesBefore + "\t" + firstBatch + "\t"
                    + path;
        }

        static Segment decode(String text) {
            String[] f = text.split("\t", 7);
            return new Segment(f[6], Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]),
                    Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]));
        }
    }

    final String path;
    final long firstBatch; // the batch of the file's first record with a timestamp, or Placement.NONE
    final long firstTimestamp;
    final long lastTimestamp;
    private final long[] batches; // sorted
    private final long[][] ranges; // per batch: start, end, newest before start, lines before start

    private FileIndex(String path, long firstBatch, long firstTimestamp, long lastTimestamp, long[] batches,
            long[][] ranges) {
        this.path = path;
        this.firstBatch = firstBatch;
        this.firstTimestamp = firstTimestamp;
        this.lastTimestamp = lastTimestamp;
        this.batches = batches;
        this.ranges = ranges;
    }

    boolean hasRecords() {
        return firstBatch != Placement.NONE;
    }

    /** The segment of batch {@code batch}, or null when the file has no line of it. */
    Segment segment(long batch) {
        int i = Arrays.binarySearch(batches, batch);
        if (i < 0) {
            return null;
        }
        long[] r = ranges[i];
        return new Segment(path, batch, r[0], r[1], r[2], r[3], firstBatch);
    }

    /** The timestamp of a line, or null when the line has none (no text, or the extractor failed or gave null). */
    static Long timestampOf(LineReader.Line line, Function<String, Long> extractor) {
        if (line.text() == null) {
            return null;
        }
        try {
            return extractor.call(line.text());
        } catch (Exception e) {
            return null;
        }
    }

    /** Reads {@code in} (the whole file) once; see the class comment. */
    static FileIndex build(String path, InputStream in, Function<String, Long> extractor, long interval,
            long lateness, int maxLineLength) throws IOException {
        LineReader reader = new LineReader(in, maxLineLength, false, true);
        Placement placement = new Placement(interval, lateness, Placement.NONE);
        Map<Long, long[]> found = new TreeMap<>();
        boolean leadingWithout = false;
        long firstBatch = Placement.NONE;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long lines = 0;
        while (true) {
            long before = reader.offset();
            long newestBefore = placement.newest();
            LineReader.Line line = reader.next();
            if (line.isEnd()) {
                break;
            }
            Long ts = timestampOf(line, extractor);
            long batch;
            if (ts == null) {
                batch = placement.firstOpen();
                if (batch == Placement.NONE) {
                    leadingWithout = true;
                    lines = line.number();
                    continue;
                }
            } else {
                batch = placement.place(ts);
                first = Math.min(first, ts);
                last = Math.max(last, ts);
                if (firstBatch == Placement.NONE) {
                    firstBatch = batch;
                }
            }
            long[] range = found.get(batch);
            if (range == null) {
                found.put(batch, new long[] {before, reader.offset(), newestBefore, lines});
            } else {
                range[1] = reader.offset();
            }
            lines = line.number();
        }
        if (leadingWithout && firstBatch != Placement.NONE) {
            long[] range = found.get(firstBatch);
            range[0] = 0;
            range[2] = Placement.NONE;
            range[3] = 0;
        }
        long[] batches = new long[found.size()];
        long[][] ranges = new long[found.size()][];
        int i = 0;
        for (Map.Entry<Long, long[]> e : found.entrySet()) {
            batches[i] = e.getKey();
            ranges[i++] = e.getValue();
        }
        return new FileIndex(path, firstBatch, first, last, batches, ranges);
    }
}
