package io.sluice.dstream;

import io.sluice.dstream.source.internal.Sources;
import java.time.Duration;
import org.apache.spark.api.java.function.Function;

/**
 * Streams of recorded input, replayed by batch time: what a windowed or stateful job would have output over
 * last week's logs. On a replay clock ({@link Clock#replay()}) the context runs the recording at CPU speed and
 * stops after its last record; on any other clock the batches read the records of their own times. Both sources
 * replay by batch time, so checkpoints and {@code getOrCreate} continue an interrupted replay exactly.
 */
public final class Replay {
    private Replay() {
    }

    /** As {@link #textFiles(StreamingContext, String, Function, Duration)}, with no lateness: records in order. */
    public static DStream<String> textFiles(StreamingContext context, String path, Function<String, Long> timestamp) {
        return textFiles(context, path, timestamp, Duration.ZERO);
    }

    /**
     * The lines of the text files at {@code path} (a file, a directory's files, or a glob), each in the batch whose
     * interval {@code (t - interval, t]} holds its timestamp (epoch ms, from {@code timestamp}; see {@link
     * #timestampColumn}). Each file is a recording in time order up to {@code lateness}: a line at most that much
     * older than the newest line before it goes to its own batch; an older one is late and, as a line without a
     * timestamp, follows {@code sluice.input.badRecords} in the first batch still open (a late line is kept there
     * under {@code replace}, counted as repaired). Malformed UTF-8 and over-long lines are handled as in {@link
     * StreamingContext#textFileStream}. The files are read once when the context starts, to index them.
     */
    public static DStream<String> textFiles(StreamingContext context, String path, Function<String, Long> timestamp,
            Duration lateness) {
        return context.fromSource("replayTextFiles",
                Sources.replayTextFiles(path, timestamp, context.batchInterval(), lateness));
    }

    /**
     * A recording kept as one directory per batch time under {@code root}, named by the time (epoch milliseconds
     * or an ISO-8601 instant such as {@code 2026-12-01T00:00:01Z}); the batch at that time reads the directory's
     * text files. A directory between two batch times goes to the batch after it.
     */
    public static DStream<String> batchDirectories(StreamingContext context, String root) {
        return context.fromSource("replayBatchDirectories",
                Sources.replayBatchDirectories(root, context.batchInterval()));
    }

    /**
     * A timestamp extractor for delimited lines: field {@code index} (from 0) of the line split at {@code
     * separator} (a plain string, e.g. {@code ","}, {@code "\t"} or {@code " "}), read as {@code format}: {@code
     * epochMillis}, {@code epochSeconds}, {@code iso} (an ISO-8601 instant) or a {@link
     * java.time.format.DateTimeFormatter} pattern, in UTC (e.g. {@code yyyy-MM-dd HH:mm:ss.SSS}).
     */
    public static Function<String, Long> timestampColumn(int index, String separator, String format) {
        return Sources.timestampColumn(index, separator, format);
    }
}
