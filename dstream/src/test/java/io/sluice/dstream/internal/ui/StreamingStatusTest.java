package io.sluice.dstream.internal.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.OutputOperationInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.BatchReport;
import io.sluice.rdd.Time;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The page's model over a long run: 10,000 completed batches keep the retained window bounded
 * ({@code sluice.ui.retainedBatches}), the totals exact, the pages newest first, and every endpoint fast.
 */
class StreamingStatusTest {
    private static BatchInfo batch(long t, long records, boolean failed) {
        Time time = new Time(t);
        return new BatchInfo(time, records, 0, t, t + 5, t + 25,
                Map.of(0, new OutputOperationInfo(time, 0, "foreachRDD", "foreachRDD at Job.java:1", t + 5, t + 25,
                        failed ? "boom" : null)),
                Map.of("in", new BatchReport(records, 0)));
    }

    @Test
    void tenThousandBatchesKeepTheWindowBoundedAndTheEndpointsFast() {
        StreamingStatus status = new StreamingStatus(1000);
        for (long i = 1; i <= 10_000; i++) {
            BatchInfo b = batch(i * 1000, i % 7, i % 1000 == 0);
            status.onBatchSubmitted(new StreamingListener.BatchSubmitted(b));
            status.jobStarted(i * 1000, (int) i, "foreachRDD at Job.java:1");
            status.onBatchCompleted(new StreamingListener.BatchCompleted(b));
        }
        StreamingStatus.Totals totals = status.totals();
        assertEquals(10_000, totals.completed());
        assertEquals(10, totals.failed());
        assertEquals(1000, status.completedRetained());
        assertTrue(status.batch(9_000_000).isEmpty(), "batch 9000 is older than the window");
        assertEquals(1, status.batch(10_000_000).orElseThrow().jobs().size());

        StatusJson json = new StatusJson(status, new GraphView(List.of(), List.of()), 1000, new io.sluice.testkit.ManualClock(20_000_000L),
                Optional::empty);
        long start = System.nanoTime();
        String page1 = json.get("batches", Map.of("status", "completed", "page", "1")).orElseThrow();
        String stats = json.get("statistics", Map.of()).orElseThrow();
        for (int i = 0; i < 50; i++) { // the page polls every second: each poll must be cheap
            json.get("statistics", Map.of());
            json.get("batches", Map.of("status", "completed", "page", "40"));
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 5000, "50 polls took " + millis + " ms");
        assertTrue(page1.startsWith("{\"status\":\"completed\",\"page\":1,\"size\":25,\"total\":1000,"
                + "\"batches\":[{\"batchTime\":10000000,\"status\":\"failed\",\"numRecords\":4,"), page1);
        assertTrue(stats.contains("\"completedBatches\":10000,\"failedBatches\":10,"), stats);
        int from = stats.indexOf("\"batchTime\":[") + "\"batchTime\":[".length();
        String[] times = stats.substring(from, stats.indexOf(']', from)).split(",");
        assertEquals(1000, times.length, "a thousand points per series");
        assertEquals("9001000", times[0]);
    }
}
