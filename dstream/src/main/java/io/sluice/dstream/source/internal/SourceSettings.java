package io.sluice.dstream.source.internal;

import io.sluice.dstream.source.SourceContext;
import java.io.Serializable;
import java.time.Duration;
import java.util.function.Function;
import org.apache.spark.network.util.JavaUtils;

/**
 * The settings of sources and receivers, read by each built-in source when the context starts it (backpressure
 * is the engine's: {@code Settings.BACKPRESSURE_*}). Each Sluice key falls back to the Spark Streaming key of the
 * same meaning, so a job moved from Spark Streaming keeps its configuration. Serializable: receivers carry it to
 * the executors.
 *
 * @param blockInterval how often a receiver cuts what it stored into a block; unset, half the batch interval up
 *     to 200 ms (Spark Streaming: always 200 ms, so a record waits up to 200 ms for its block even with
 *     100 ms batches)
 * @param receiverMaxRate records per second one receiver may store; 0 means unlimited
 * @param badRecords what a source does with a record it cannot read as it is: repair, skip or fail
 * @param maxLineLength the longest line (in bytes) a line-based source accepts
 * @param restartDelay the first wait before a receiver restarts (reconnects); doubles up to maxRestartDelay
 * @param connectTimeout how long a socket receiver waits for the server to accept
 * @param writeAheadLog whether received blocks are logged before they are acknowledged
 * @param blockQueueSize blocks cut but not yet stored; a full queue makes {@code store} wait
 * @param minFileAgeMillis how long a file must be unmodified before a file stream reads it without seeing it
 *     unchanged in two listings; 0 (the default) reads every file in the batch in which it appears, as Spark
 *     Streaming does for files moved into the directory
 * @param maxBufferedBytes stored bytes of a receiver's blocks no completed batch has taken yet, above which
 *     it stops reading until batches catch up; -1 means half the executor's storage memory
 */
public record SourceSettings(Duration blockInterval, long receiverMaxRate, BadRecordPolicy badRecords,
        int maxLineLength, Duration restartDelay, Duration maxRestartDelay, Duration connectTimeout,
        boolean writeAheadLog, int blockQueueSize, long minFileAgeMillis, long maxBufferedBytes)
        implements Serializable {

    public static final String BLOCK_INTERVAL = "sluice.receiver.blockInterval";
    public static final String RECEIVER_MAX_RATE = "sluice.receiver.maxRate";
    public static final String BAD_RECORDS = "sluice.input.badRecords";
    public static final String MAX_LINE_LENGTH = "sluice.input.maxLineLength";
    public static final String RESTART_DELAY = "sluice.receiver.restartDelay";
    public static final String MAX_RESTART_DELAY = "sluice.receiver.maxRestartDelay";
    public static final String CONNECT_TIMEOUT = "sluice.receiver.connectTimeout";
    public static final String WRITE_AHEAD_LOG = "sluice.receiver.writeAheadLog.enable";
    public static final String BLOCK_QUEUE_SIZE = "sluice.receiver.blockQueueSize";
    public static final String MIN_FILE_AGE = "sluice.input.fileStream.minFileAge";
    public static final String MAX_BUFFERED_BYTES = "sluice.receiver.maxBufferedBytes";

    /** What a source does with a record it cannot read as it is. */
    public enum BadRecordPolicy {
        /**
         * Keep the record repaired as Spark Streaming reads it (malformed UTF-8 decoded as U+FFFD, an over-long
         * line cut at the maximum, a line cut off by a closing server kept as it came), counted in the batch's
         * repaired records; a record that cannot be repaired (a converter failure, a vanished file) is skipped.
         */
        REPLACE,
        /** Drop the record and count it in the batch's {@code skippedRecords}. */
        SKIP,
        /** Stop the source and fail the batch with an error naming the source, the batch and the record. */
        FAIL
    }

    public SourceSettings {
        if (blockInterval.toMillis() <= 0) {
            throw new IllegalArgumentException(BLOCK_INTERVAL + " must be positive, was " + blockInterval);
        }
        if (receiverMaxRate < 0) {
            throw new IllegalArgumentException(RECEIVER_MAX_RATE + " must not be negative, was " + receiverMaxRate);
        }
        if (maxLineLength < 1 || blockQueueSize < 1) {
            throw new IllegalArgumentException(MAX_LINE_LENGTH + " and " + BLOCK_QUEUE_SIZE + " must be positive");
        }
    }

    /** The block interval when none is set: Spark's 200 ms, or half the batch interval when that is shorter. */
    static final Duration MAX_DEFAULT_BLOCK_INTERVAL = Duration.ofMillis(200);

    /** Reads the settings of the context that starts a source. */
    public static SourceSettings from(SourceContext context) {
        return from(key -> context.setting(key).orElse(null), context.grid().step());
    }

    /** Reads the settings through {@code conf}, which returns null for a key that is not set (batch: 200 ms+). */
    public static SourceSettings from(Function<String, String> conf) {
        return from(conf, MAX_DEFAULT_BLOCK_INTERVAL.multipliedBy(2));
    }

    /**
     * Reads the settings through {@code conf} for a context of {@code batchInterval}: a block interval not set
     * is half the batch interval, at most 200 ms, so that with short batches a record's block is cut (and taken
     * by a batch) within the batch after it arrived.
     */
    public static SourceSettings from(Function<String, String> conf, Duration batchInterval) {
        Reader r = new Reader(conf);
        Duration half = batchInterval.dividedBy(2);
        Duration defaultBlock = half.compareTo(MAX_DEFAULT_BLOCK_INTERVAL) < 0 && half.toMillis() > 0
                ? half : MAX_DEFAULT_BLOCK_INTERVAL;
        return new SourceSettings(
                r.duration(BLOCK_INTERVAL, "spark.streaming.blockInterval", defaultBlock.toMillis() + "ms"),
                r.longValue(RECEIVER_MAX_RATE, "spark.streaming.receiver.maxRate", 0),
                policy(r.get(BAD_RECORDS, null, "replace")),
                (int) r.longValue(MAX_LINE_LENGTH, null, 1 << 20),
                r.duration(RESTART_DELAY, null, "100ms"),
                r.duration(MAX_RESTART_DELAY, "spark.streaming.receiverRestartDelay", "2s"),
                r.duration(CONNECT_TIMEOUT, null, "10s"),
                Boolean.parseBoolean(r.get(WRITE_AHEAD_LOG, "spark.streaming.receiver.writeAheadLog.enable", "false")),
                (int) r.longValue(BLOCK_QUEUE_SIZE, "spark.streaming.blockQueueSize", 10),
                r.duration(MIN_FILE_AGE, null, "0").toMillis(),
                conf.apply(MAX_BUFFERED_BYTES) == null ? -1 : r.bytes(MAX_BUFFERED_BYTES));
    }

    private static BadRecordPolicy policy(String value) {
        try {
            return BadRecordPolicy.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(BAD_RECORDS + " must be replace, skip or fail, was '" + value + "'", e);
        }
    }

    private record Reader(Function<String, String> conf) {
        String get(String key, String sparkKey, String dflt) {
            String v = conf.apply(key);
            if (v == null && sparkKey != null) {
                v = conf.apply(sparkKey);
            }
            return v == null ? dflt : v;
        }

        Duration duration(String key, String sparkKey, String dflt) {
            String v = get(key, sparkKey, dflt).trim();
            try {
                return Duration.ofMillis(JavaUtils.timeStringAsMs(v));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a duration such as 200ms or 2s, was '" + v + "'", e);
            }
        }

        long longValue(String key, String sparkKey, long dflt) {
            String v = get(key, sparkKey, null);
            try {
                return v == null ? dflt : Long.parseLong(v.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a whole number, was '" + v + "'", e);
            }
        }

        long bytes(String key) {
            String v = get(key, null, "0").trim();
            try {
                return JavaUtils.byteStringAsBytes(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a size such as 64m or 1g, was '" + v + "'", e);
            }
        }
    }
}
