package io.sluice.recovery.internal.wal;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of one segment file of a {@link FileWriteAheadLog}: {@code log-<start>-<end>-<sequence>}. Every
 * record in the segment has a time in [start, end) (milliseconds), which is what lets {@code clean} delete
 * whole files without reading them; the sequence number grows with every segment ever created in the
 * directory, so sorting by it gives the order in which records were written, across driver restarts.
 */
record SegmentName(long start, long end, long sequence) {
    private static final Pattern FORMAT = Pattern.compile("log-(-?\\d+)-(-?\\d+)-(\\d+)");

    SegmentName {
        if (end <= start || sequence < 0) {
            throw new IllegalArgumentException("invalid write-ahead log segment [" + start + ", " + end + ") #" + sequence);
        }
    }

    String fileName() {
        return "log-" + start + "-" + end + "-" + sequence;
    }

    boolean holds(long timeMillis) {
        return timeMillis >= start && timeMillis < end;
    }

    /** The segment a file name denotes, or empty for any other file (temp files, a user's notes). */
    static Optional<SegmentName> parse(String fileName) {
        Matcher m = FORMAT.matcher(fileName);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SegmentName(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                    Long.parseLong(m.group(3))));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
