package io.sluice.dstream.source;

import io.sluice.rdd.Time;

/**
 * When a recording's records begin and end: the timestamps of its earliest and latest records. A context on a
 * replay clock runs from the batch that holds {@code first} to the batch that holds {@code last}, then stops.
 */
public record RecordedSpan(Time first, Time last) {
    public RecordedSpan {
        if (first == null || last == null || last.isBefore(first)) {
            throw new IllegalArgumentException("a recorded span ends at or after its start: " + first + " to " + last);
        }
    }

    /** The span that covers both. */
    public RecordedSpan union(RecordedSpan other) {
        return new RecordedSpan(first.isBefore(other.first) ? first : other.first,
                last.isAfter(other.last) ? last : other.last);
    }
}
