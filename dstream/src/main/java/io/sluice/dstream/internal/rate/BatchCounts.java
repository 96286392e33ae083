package io.sluice.dstream.internal.rate;

import io.sluice.rdd.Time;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The records a source put into its recent batches, kept for the rate controller, which hears of a batch only
 * after it completed (possibly after the source forgot the batch's RDD). Holds the last {@value #KEEP} batches.
 */
public final class BatchCounts {
    private static final int KEEP = 64;
    private final NavigableMap<Time, Long> counts = new ConcurrentSkipListMap<>();

    public void put(Time time, long records) {
        counts.put(time, records);
        while (counts.size() > KEEP) {
            counts.pollFirstEntry();
        }
    }

    public long get(Time time) {
        Long n = counts.get(time);
        return n == null ? -1 : n;
    }
}
