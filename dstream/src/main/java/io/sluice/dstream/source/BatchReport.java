package io.sluice.dstream.source;

/** What a source reports for one batch: the records in it, and the records it skipped as bad input. */
public record BatchReport(long records, long skipped) {
    public static final BatchReport NONE = new BatchReport(0, 0);

    public BatchReport {
        if (records < 0 || skipped < 0) {
            throw new IllegalArgumentException("record counts must not be negative: " + records + ", " + skipped);
        }
    }
}
