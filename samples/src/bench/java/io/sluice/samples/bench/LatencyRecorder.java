package io.sluice.samples.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one interval of L1 observed: every record's latency (the wall-clock time when its batch's output job had
 * completed, minus the time the record was due), to the millisecond, for the records due in the measurement
 * window; and every batch's scheduling delay. The outputs of both engines call {@link #recordOutput} on the driver;
 * it is static because Spark Streaming serializes its output functions into its checkpoints, so they capture
 * nothing.
 */
final class LatencyRecorder {
    /** Latencies above this many ms are counted at it (the maximum stays exact). */
    private static final int CEILING_MS = 600_000;
    private static volatile LatencyRecorder current;

    private final long windowStart;
    private final long windowEnd;
    private final int[] histogram = new int[CEILING_MS + 1];
    private final Map<Long, Long> schedulingDelays = new TreeMap<>();
    private long reached;
    private long max;

    private LatencyRecorder(long windowStart, long windowEnd) {
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
    }

    /** Starts recording for a window of records due in [windowStart, windowEnd) (epoch ms). */
    static LatencyRecorder start(long windowStart, long windowEnd) {
        LatencyRecorder recorder = new LatencyRecorder(windowStart, windowEnd);
        current = recorder;
        return recorder;
    }

    /** The output of a batch, once its job has completed: the due times of the records it emitted. */
    static void recordOutput(List<Long> dueMillis) {
        long now = System.currentTimeMillis();
        current.record(now, dueMillis);
    }

    /** Records the latency of each record due in the window, its output completed at {@code now}. */
    synchronized void record(long now, List<Long> dueMillis) {
        for (long due : dueMillis) {
            if (due >= windowStart && due < windowEnd) {
                long latency = Math.max(0, now - due);
                histogram[(int) Math.min(CEILING_MS, latency)]++;
                reached++;
                max = Math.max(max, latency);
            }
        }
    }

    synchronized void batchCompleted(long batchTime, long schedulingDelay) {
        schedulingDelays.put(batchTime, schedulingDelay);
    }

    /** The interval's result: {@code expected} records were due in the window. */
    synchronized Result result(Duration interval, long expected) {
        long step = interval.toMillis();
        List<Long> delays = new ArrayList<>();
        schedulingDelays.forEach((time, delay) -> {
            if (time >= windowStart && time < windowEnd) {
                delays.add(delay);
            }
        });
        long batchesDue = (windowEnd - windowStart) / step;
        List<Long> last = delays.subList(Math.max(0, delays.size() - 20), delays.size());
        long worstOfLast = last.stream().mapToLong(Long::longValue).max().orElse(Long.MAX_VALUE);
        return new Result(step, expected, reached, percentile(0.50), percentile(0.99), reached == 0 ? -1 : max,
                delays.size(), batchesDue, worstOfLast);
    }

    private long percentile(double q) {
        if (reached == 0) {
            return -1;
        }
        long rank = (long) Math.ceil(q * reached);
        long seen = 0;
        for (int ms = 0; ms < histogram.length; ms++) {
            seen += histogram[ms];
            if (seen >= rank) {
                return ms;
            }
        }
        return CEILING_MS;
    }

    /**
     * One interval's figures. Sustained when the scheduling delay stayed bounded (at most one batch of the window
     * missing at the end, and each of its last 20 batches started less than one interval late) and at least 90% of
     * the records due in the window reached an output.
     */
    record Result(long intervalMs, long expected, long reached, long p50, long p99, long max, long batches,
            long batchesDue, long worstDelayOfLast20) {
        boolean delayBounded() {
            return batches >= batchesDue - 1 && worstDelayOfLast20 < intervalMs;
        }

        double reachedFraction() {
            return expected == 0 ? 0 : (double) reached / expected;
        }

        boolean sustained() {
            return delayBounded() && reachedFraction() >= 0.9;
        }

        /** A table row: interval, sustained, p50, p99, max, reached, batches, worst delay of the last 20. */
        String[] cells() {
            return new String[] {intervalMs + " ms", sustained() ? "yes" : "no", ms(p50), ms(p99), ms(max),
                String.format(Locale.ROOT, "%.1f%%", 100 * reachedFraction()), batches + " / " + batchesDue,
                worstDelayOfLast20 == Long.MAX_VALUE ? "–" : worstDelayOfLast20 + " ms"};
        }

        private static String ms(long value) {
            return value < 0 ? "–" : value + " ms";
        }

        @Override
        public String toString() {
            String[] c = cells();
            return c[0] + ": " + (sustained() ? "sustained" : "not sustained") + ", p50 " + c[2] + ", p99 " + c[3]
                    + ", max " + c[4] + ", " + c[5] + " of " + expected + " records reached an output, batches "
                    + c[6] + ", worst scheduling delay of the last 20 " + c[7];
        }
    }
}
