package io.sluice.state.internal;

import java.util.Arrays;

/**
 * Which keys may time out when: one bucket per batch time u, holding the keys whose last update was at u.
 * Batch t fires exactly the buckets with {@code u < t - timeout}, so a timeout costs work proportional to the
 * keys that were updated that long ago, never a scan of all state.
 *
 * <p>Buckets are invalidated lazily: a key updated again later stays in its old bucket, and is skipped when
 * that bucket fires because its current update time is no longer u. So that stale entries cannot pile up
 * (a hot key updated every batch under a long timeout), the index is rebuilt without them whenever stale
 * entries outnumber live keys; that rebuild costs no more than the updates that made the entries stale.
 *
 * <p>Immutable: the next version's index shares this one's buckets.
 */
final class TimeoutIndex {
    static final TimeoutIndex EMPTY = new TimeoutIndex(new long[0], new Object[0][], 0);

    private final long[] times;
    private final Object[][] keys;
    private final long references;

    TimeoutIndex(long[] times, Object[][] keys, long references) {
        this.times = times;
        this.keys = keys;
        this.references = references;
    }

    int buckets() {
        return times.length;
    }

    long bucketTime(int i) {
        return times[i];
    }

    Object[] bucketKeys(int i) {
        return keys[i];
    }

    /** Every key reference held, stale ones included. */
    long references() {
        return references;
    }

    /** How many of the oldest buckets have a time before {@code threshold} (buckets are ordered by time). */
    int bucketsBefore(long threshold) {
        int n = 0;
        while (n < times.length && times[n] < threshold) {
            n++;
        }
        return n;
    }

    /**
     * This index without its {@code dropped} oldest buckets, plus the keys updated at {@code time} (merged into
     * the newest bucket when that has the same time, as the initial state and the first batch do).
     */
    TimeoutIndex next(int dropped, long time, Object[] updated, int updatedCount) {
        int kept = times.length - dropped;
        boolean merge = updatedCount > 0 && kept > 0 && times[times.length - 1] == time;
        int add = updatedCount > 0 && !merge ? 1 : 0;
        long[] t = new long[kept + add];
        Object[][] k = new Object[kept + add][];
        long refs = 0;
        for (int i = 0; i < kept; i++) {
            t[i] = times[dropped + i];
            k[i] = keys[dropped + i];
            refs += k[i].length;
        }
        if (merge) {
            Object[] last = k[kept - 1];
            Object[] joined = Arrays.copyOf(last, last.length + updatedCount);
            System.arraycopy(updated, 0, joined, last.length, updatedCount);
            k[kept - 1] = joined;
            refs += updatedCount;
        } else if (add == 1) {
            if (kept > 0 && t[kept - 1] > time) {
                throw new IllegalStateException("timeout buckets out of order: " + t[kept - 1] + " then " + time);
            }
            t[kept] = time;
            k[kept] = Arrays.copyOf(updated, updatedCount);
            refs += updatedCount;
        }
        return new TimeoutIndex(t, k, refs);
    }

    /** Decides, per key reference, whether it is still live; used to drop stale references. */
    interface Liveness {
        boolean lastUpdatedAt(Object key, long time);
    }

    TimeoutIndex withoutStale(Liveness liveness) {
        long[] t = new long[times.length];
        Object[][] k = new Object[times.length][];
        int n = 0;
        long refs = 0;
        for (int i = 0; i < times.length; i++) {
            Object[] live = new Object[keys[i].length];
            int m = 0;
            for (Object key : keys[i]) {
                if (liveness.lastUpdatedAt(key, times[i])) {
                    live[m++] = key;
                }
            }
            if (m > 0) {
                t[n] = times[i];
                k[n++] = Arrays.copyOf(live, m);
                refs += m;
            }
        }
        return new TimeoutIndex(Arrays.copyOf(t, n), Arrays.copyOf(k, n), refs);
    }

    /** Builds the index of a loaded state from each key's last update time. */
    static TimeoutIndex fromTimes(java.util.SortedMap<Long, java.util.List<Object>> byTime) {
        long[] t = new long[byTime.size()];
        Object[][] k = new Object[byTime.size()][];
        int i = 0;
        long refs = 0;
        for (var e : byTime.entrySet()) {
            t[i] = e.getKey();
            k[i] = e.getValue().toArray();
            refs += k[i].length;
            i++;
        }
        return new TimeoutIndex(t, k, refs);
    }
}
