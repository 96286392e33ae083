package io.sluice.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** L1's bookkeeping: latencies of the window's records, percentiles, and when an interval counts as sustained. */
class LatencyRecorderTest {
    private static final long START = 1_000_000;
    private static final Duration INTERVAL = Duration.ofMillis(100);

    /** A window of 10 s of 100 ms batches, each of the 100 batches started {@code delay} ms late. */
    private static LatencyRecorder windowWithBatches(long delay) {
        LatencyRecorder recorder = LatencyRecorder.start(START, START + 10_000);
        recorder.batchCompleted(START - 100, 5_000); // before the window: not counted
        for (long t = START; t < START + 10_000; t += 100) {
            recorder.batchCompleted(t, delay);
        }
        return recorder;
    }

    @Test
    void percentilesAreOverTheRecordsDueInTheWindow() {
        LatencyRecorder recorder = windowWithBatches(3);
        List<Long> due = new ArrayList<>();
        for (long i = 1; i <= 100; i++) {
            due.add(START + 1_000 - i); // latencies 1..100 ms when recorded at START + 1000
        }
        due.add(START - 1);             // due before the window
        due.add(START + 10_000);        // due after it
        recorder.record(START + 1_000, due);
        LatencyRecorder.Result r = recorder.result(INTERVAL, 100);
        assertEquals(100, r.reached());
        assertEquals(50, r.p50());
        assertEquals(99, r.p99());
        assertEquals(100, r.max());
        assertEquals(100, r.batches());
        assertTrue(r.sustained(), r.toString());
    }

    @Test
    void anIntervalWhoseBatchesStartLateOrLoseRecordsIsNotSustained() {
        LatencyRecorder late = windowWithBatches(100); // a whole interval late
        late.record(START + 5_000, List.of(START + 4_000));
        assertFalse(late.result(INTERVAL, 1).delayBounded());

        LatencyRecorder lossy = windowWithBatches(0);
        List<Long> due = new ArrayList<>();
        for (int i = 0; i < 89; i++) {
            due.add(START + i);
        }
        lossy.record(START + 200, due);
        LatencyRecorder.Result r = lossy.result(INTERVAL, 100);
        assertTrue(r.delayBounded());
        assertFalse(r.sustained(), "89% of the records reached an output: " + r);
    }

    @Test
    void missingBatchesAtTheEndMeanTheDelayGrew() {
        LatencyRecorder recorder = LatencyRecorder.start(START, START + 10_000);
        for (long t = START; t < START + 5_000; t += 100) {
            recorder.batchCompleted(t, 0); // the second half never completed
        }
        assertFalse(recorder.result(INTERVAL, 0).delayBounded());
    }

    @Test
    void theFigureIsTheBestSustainedP99() {
        LatencyRecorder.Result slow = new LatencyRecorder.Result(1000, 100, 100, 600, 990, 1010, 60, 60, 2);
        LatencyRecorder.Result fast = new LatencyRecorder.Result(250, 100, 100, 200, 300, 400, 240, 240, 10);
        LatencyRecorder.Result lagging = new LatencyRecorder.Result(100, 100, 100, 90, 150, 160, 500, 600, 4000);
        Measurement m = LatencyTable.measurement(List.of(slow, fast, lagging));
        assertEquals(300, m.value());
        assertTrue(m.detail().startsWith("smallest sustained interval 250 ms: p50 200 ms, p99 300 ms, max 400 ms"),
                m.detail());
        assertEquals(Double.POSITIVE_INFINITY, LatencyTable.measurement(List.of(lagging)).value());
    }

    @Test
    void theEmitterPacesRecordsAndStampsThemWithTheirDueTime() {
        List<StampedRecords.Stamped> stored = new ArrayList<>();
        StampedRecords.emit(1_000, LatencyWorkload.KEYS, stored::add, () -> stored.size() >= 50);
        assertEquals(50, stored.size());
        for (int i = 1; i < stored.size(); i++) {
            assertEquals(1, stored.get(i).dueMillis() - stored.get(i - 1).dueMillis(), "1,000 records/s: 1 ms apart");
            assertTrue(stored.get(i).key() >= 0 && stored.get(i).key() < LatencyWorkload.KEYS);
        }
    }
}
