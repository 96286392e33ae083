package io.sluice.dstream.source;

import java.util.Collection;

/**
 * What a source reports for one batch: the records in it, the records it skipped as bad input, and the records
 * it repaired and kept (malformed bytes decoded as U+FFFD, an over-long line cut short, a line cut off by a
 * closing server), as {@code sluice.input.badRecords} says. Repaired records are also counted in
 * {@code records}; skipped ones are not.
 */
public record BatchReport(long records, long skipped, long repaired) {
    public static final BatchReport NONE = new BatchReport(0, 0, 0);

    public BatchReport {
        if (records < 0 || skipped < 0 || repaired < 0) {
            throw new IllegalArgumentException("record counts must not be negative: " + records + ", " + skipped
                    + ", " + repaired);
        }
    }

    /** A report of a source that repairs nothing. */
    public BatchReport(long records, long skipped) {
        this(records, skipped, 0);
    }

    public BatchReport plus(BatchReport other) {
        return new BatchReport(records + other.records, skipped + other.skipped, repaired + other.repaired);
    }

    public static BatchReport sum(Collection<BatchReport> reports) {
        BatchReport total = NONE;
        for (BatchReport r : reports) {
            total = total.plus(r);
        }
        return total;
    }
}
