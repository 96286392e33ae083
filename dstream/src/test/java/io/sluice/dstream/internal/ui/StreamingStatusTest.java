package io.sluice.dstream.internal.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.OutputOperationInfo;
import io.sluice.dstream.scheduler.StateCheckpointInfo;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.BatchReport;
import io.sluice.rdd.Time;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The page's model over a long run: 10,000 completed batches keep the retained window bounded
 * ({@code sluice.ui.retainedBatches}), the totals exact, the pages newest first, and every endpoint fast. And
 * the stateful operators' figures as the {@code state} endpoint and a batch's document give them.
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

    /** A completed batch of a job with one stateful operator, "counts", with its figures (and checkpoint). */
    private static BatchInfo stateBatch(long t, long keys, long timedOut, StateCheckpointInfo checkpoint) {
        BatchInfo plain = batch(t, 1, false);
        StateOperatorInfo state = new StateOperatorInfo("counts", new Time(t), keys, keys * 100, 0, timedOut, 2, 2,
                checkpoint);
        return new BatchInfo(plain.batchTime(), plain.numRecords(), 0, t, t + 5, t + 25,
                plain.outputOperationInfos(), plain.inputReports(), Map.of("counts", state));
    }

    @Test
    void theStateEndpointShowsTheNewestFiguresTheLastCheckpointAndAShortHistory() {
        StreamingStatus status = new StreamingStatus(100);
        StateCheckpointInfo full = new StateCheckpointInfo(2, 0, 4096, 12);
        StateCheckpointInfo delta = new StateCheckpointInfo(0, 2, 300, 3);
        for (long i = 1; i <= 12; i++) {
            StateCheckpointInfo c = i == 2 ? full : i % 2 == 0 ? delta : null;
            BatchInfo b = stateBatch(i * 1000, 10 * i, i == 4 ? 3 : 0, c);
            status.onBatchSubmitted(new StreamingListener.BatchSubmitted(b));
            status.onBatchCompleted(new StreamingListener.BatchCompleted(b));
        }
        GraphView graph = new GraphView(List.of(
                new GraphView.OperatorView("#0-queueStream", "queueStream", null, "queueStream at Job.java:2",
                        List.of(), true, false, List.of()),
                new GraphView.OperatorView("counts", "mapWithState", "counts", "mapWithState at Job.java:3",
                        List.of("#0-queueStream"), false, true, List.of())), List.of());
        StatusJson json = new StatusJson(status, graph, 1000, new io.sluice.testkit.ManualClock(20_000L),
                Optional::empty);
        String state = json.get("state", Map.of()).orElseThrow();
        assertTrue(state.startsWith("[{\"id\":\"counts\",\"kind\":\"mapWithState\",\"name\":\"counts\","
                + "\"callSite\":\"mapWithState at Job.java:3\",\"latest\":{\"id\":\"counts\",\"batchTime\":12000,"
                + "\"keys\":120,\"bytes\":12000,\"timedOut\":0,\"reportedPartitions\":2,\"partitions\":2,"
                + "\"checkpoint\":{\"kind\":\"delta\",\"fullFiles\":0,\"deltaFiles\":2,\"bytes\":300,\"writeMs\":3}},"
                + "\"lastCheckpoint\":{\"batchTime\":12000,\"kind\":\"delta\",\"fullFiles\":0,\"deltaFiles\":2,"
                + "\"bytes\":300,\"writeMs\":3},\"history\":[{\"id\":\"counts\",\"batchTime\":12000,"), state);
        assertEquals(StateJson.HISTORY, count(state.substring(state.indexOf("\"history\"")), "\"id\":\"counts\""),
                "the history holds the newest batches only");
        assertTrue(state.endsWith("\"series\":{\"batchTime\":[1000,2000,3000,4000,5000,6000,7000,8000,9000,10000,"
                + "11000,12000],\"keys\":[10,20,30,40,50,60,70,80,90,100,110,120],\"bytes\":[1000,2000,3000,4000,"
                + "5000,6000,7000,8000,9000,10000,11000,12000]}}]"), state);
        String batch4 = json.get("batches/4000", Map.of()).orElseThrow();
        assertTrue(batch4.endsWith(",\"state\":[{\"id\":\"counts\",\"batchTime\":4000,\"keys\":40,\"bytes\":4000,"
                + "\"timedOut\":3,\"reportedPartitions\":2,\"partitions\":2,\"checkpoint\":{\"kind\":\"delta\","
                + "\"fullFiles\":0,\"deltaFiles\":2,\"bytes\":300,\"writeMs\":3}}]}"), batch4);
        String batch2 = json.get("batches/2000", Map.of()).orElseThrow();
        assertTrue(batch2.contains("\"checkpoint\":{\"kind\":\"full\",\"fullFiles\":2,\"deltaFiles\":0,"
                + "\"bytes\":4096,\"writeMs\":12}"), batch2);
        assertTrue(json.get("batches/3000", Map.of()).orElseThrow().contains("\"checkpoint\":null"));
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
