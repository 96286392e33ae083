package io.sluice.dstream.source.internal.replay;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.apache.spark.api.java.function.Function;

/** The timestamp in one field of a delimited line ({@code Replay.timestampColumn}). */
public final class TimestampColumn implements Function<String, Long> {
    private final int index;
    private final String separator;
    private final String format;
    private transient DateTimeFormatter pattern;

    public TimestampColumn(int index, String separator, String format) {
        if (index < 0 || separator == null || separator.isEmpty() || format == null) {
            throw new IllegalArgumentException("a timestamp column needs an index >= 0, a separator and a format");
        }
        this.index = index;
        this.separator = separator;
        this.format = format;
        if (!format.equals("epochMillis") && !format.equals("epochSeconds") && !format.equals("iso")) {
            DateTimeFormatter.ofPattern(format); // fails now on a bad pattern
        }
    }

    @Override
    public Long call(String line) {
        String field = field(line);
        switch (format) {
            case "epochMillis":
                return Long.parseLong(field);
            case "epochSeconds":
                return Long.parseLong(field) * 1000;
            case "iso":
                return Instant.parse(field).toEpochMilli();
            default:
                if (pattern == null) {
                    pattern = DateTimeFormatter.ofPattern(format);
                }
                return LocalDateTime.parse(field, pattern).toInstant(ZoneOffset.UTC).toEpochMilli();
        }
    }

    private String field(String line) {
        int from = 0;
        for (int i = 0; i < index; i++) {
            int at = line.indexOf(separator, from);
            if (at < 0) {
                throw new IllegalArgumentException("the line has fewer than " + (index + 1) + " fields");
            }
            from = at + separator.length();
        }
        int end = line.indexOf(separator, from);
        return line.substring(from, end < 0 ? line.length() : end).trim();
    }
}
