package io.sluice.dstream.internal.ui;

import io.sluice.dstream.Clock;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.OutputOperationInfo;
import io.sluice.dstream.source.BatchReport;
import io.sluice.rdd.Time;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The JSON documents of the Streaming page's endpoints, as Spark's REST API has them for Spark Streaming
 * ({@code /streaming/statistics}, {@code /batches}, {@code /receivers}): {@code statistics} (totals, averages
 * and the charts' series over the retained window, checkpoint progress), {@code batches?status=&page=&size=}
 * (newest first), {@code batches/<ms>} (one batch: inputs, output operations, Spark jobs), {@code receivers}
 * (every source: status, rate, rate limit, reconnects, last error), {@code operators} (the graph) and {@code
 * state} (per stateful operator: keys, estimated bytes, timeouts, checkpoints; a batch's document has its own).
 */
public final class StatusJson {
    public static final int PAGE_SIZE = 25;

    private final StreamingStatus status;
    private final GraphView graph;
    private final long batchIntervalMillis;
    private final Clock clock;
    private final Supplier<Optional<Time>> lastCheckpointed;

    public StatusJson(StreamingStatus status, GraphView graph, long batchIntervalMillis, Clock clock,
            Supplier<Optional<Time>> lastCheckpointed) {
        this.status = status;
        this.graph = graph;
        this.batchIntervalMillis = batchIntervalMillis;
        this.clock = clock;
        this.lastCheckpointed = lastCheckpointed;
    }

    /** The document at {@code path} (relative to the API's root), or empty for an unknown path. */
    public Optional<String> get(String path, Map<String, String> query) {
        if (path.equals("statistics")) {
            return Optional.of(statistics());
        } else if (path.equals("batches")) {
            boolean active = "active".equals(query.get("status"));
            return Optional.of(batches(active, intParam(query, "page", 1), intParam(query, "size", PAGE_SIZE)));
        } else if (path.startsWith("batches/")) {
            long time;
            try {
                time = Long.parseLong(path.substring("batches/".length()));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
            return status.batch(time).map(this::batch);
        } else if (path.equals("receivers")) {
            return Optional.of(receivers());
        } else if (path.equals("operators")) {
            return Optional.of(operators());
        } else if (path.equals("state")) {
            return Optional.of(state());
        }
        return Optional.empty();
    }

    private static int intParam(Map<String, String> query, String key, int defaultValue) {
        try {
            return Math.max(1, Integer.parseInt(query.getOrDefault(key, String.valueOf(defaultValue))));
        } catch (NumberFormatException e) {
            return defaultValue;
        }
    }

    /** Records per second of a batch of {@code records}, as Spark Streaming computes a batch's input rate. */
    double rate(long records) {
        return records * 1000.0 / batchIntervalMillis;
    }

    public String statistics() {
        StreamingStatus.Totals totals = status.totals();
        List<BatchInfo> window = status.completedBatches();
        Json j = new Json().object()
                .field("batchIntervalMs", batchIntervalMillis)
                .field("now", clock.millis())
                .field("startTime", totals.startTime())
                .field("completedBatches", totals.completed())
                .field("failedBatches", totals.failed())
                .field("totalRecords", totals.records())
                .field("lastCompletedBatch", totals.lastCompletedBatch())
                .field("retainedBatches", status.retainedBatches())
                .field("retainedCompleted", window.size())
                .field("activeBatches", status.activeBatches().size())
                .field("avgInputRate", average(window, b -> rate(b.numRecords())))
                .field("avgSchedulingDelay", average(window, b -> b.schedulingDelay()))
                .field("avgProcessingTime", average(window, b -> b.processingDelay()))
                .field("avgTotalDelay", average(window, b -> b.totalDelay()));
        Optional<Time> checkpointed = lastCheckpointed.get();
        j.field("lastCheckpointedBatch", checkpointed.map(Time::milliseconds).orElse(-1L));
        j.field("checkpointAgeMs", checkpointed.map(t -> clock.millis() - t.milliseconds()).orElse(-1L));
        j.key("series").object();
        series(j, "batchTime", window, b -> b.batchTime().milliseconds());
        series(j, "inputRate", window, b -> rate(b.numRecords()));
        series(j, "schedulingDelay", window, b -> b.schedulingDelay());
        series(j, "processingTime", window, b -> b.processingDelay());
        series(j, "totalDelay", window, b -> b.totalDelay());
        j.end();
        return j.end().toString();
    }

    /** The mean of the known values (a delay of -1 is not known), or -1 when none is. */
    static double average(List<BatchInfo> batches, java.util.function.ToDoubleFunction<BatchInfo> value) {
        return batches.stream().mapToDouble(value).filter(v -> v >= 0).average().orElse(-1);
    }

    private static void series(Json j, String name, List<BatchInfo> batches,
            java.util.function.ToDoubleFunction<BatchInfo> value) {
        j.key(name).array();
        for (BatchInfo b : batches) {
            double v = value.applyAsDouble(b);
            if (v == Math.rint(v)) {
                j.value((long) v);
            } else {
                j.value(v);
            }
        }
        j.end();
    }

    public String batches(boolean active, int page, int size) {
        List<StreamingStatus.Batch> batches = active ? status.activeBatches() : status.completedPage(page, size);
        Json j = new Json().object()
                .field("status", active ? "active" : "completed")
                .field("page", active ? 1 : page)
                .field("size", size)
                .field("total", active ? batches.size() : status.completedRetained());
        j.key("batches").array();
        for (StreamingStatus.Batch b : batches) {
            summary(j, b.info(), active);
        }
        return j.end().end().toString();
    }

    private void summary(Json j, BatchInfo b, boolean active) {
        j.object()
                .field("batchTime", b.batchTime().milliseconds())
                .field("status", active ? (b.processingStartTime() < 0 ? "queued" : "processing")
                        : b.failed() ? "failed" : "succeeded")
                .field("numRecords", b.numRecords())
                .field("inputRate", rate(b.numRecords()))
                .field("schedulingDelay", b.schedulingDelay())
                .field("processingTime", b.processingDelay())
                .field("totalDelay", b.totalDelay())
                .field("outputOperations", b.outputOperationInfos().size())
                .field("completedOutputOperations", b.outputOperationInfos().values().stream()
                        .filter(o -> o.endTime() >= 0).count())
                .field("runningOutputOperations", b.outputOperationInfos().values().stream()
                        .filter(o -> o.startTime() >= 0 && o.endTime() < 0).count())
                .field("failedOutputOperations", b.outputOperationInfos().values().stream()
                        .filter(o -> o.failureReason() != null).count())
                .end();
    }

    public String batch(StreamingStatus.Batch batch) {
        BatchInfo b = batch.info();
        boolean active = b.processingEndTime() < 0;
        Json j = new Json().object()
                .field("batchTime", b.batchTime().milliseconds())
                .field("status", active ? (b.processingStartTime() < 0 ? "queued" : "processing")
                        : b.failed() ? "failed" : "succeeded")
                .field("numRecords", b.numRecords())
                .field("skippedRecords", b.skippedRecords())
                .field("repairedRecords", b.repairedRecords())
                .field("submissionTime", b.submissionTime())
                .field("processingStartTime", b.processingStartTime())
                .field("processingEndTime", b.processingEndTime())
                .field("schedulingDelay", b.schedulingDelay())
                .field("processingTime", b.processingDelay())
                .field("totalDelay", b.totalDelay());
        j.key("inputs").array();
        for (Map.Entry<String, BatchReport> e : b.inputReports().entrySet()) {
            j.object().field("name", e.getKey()).field("records", e.getValue().records())
                    .field("skipped", e.getValue().skipped()).field("repaired", e.getValue().repaired())
                    .field("inputRate", rate(e.getValue().records())).end();
        }
        j.end().key("outputOperations").array();
        b.outputOperationInfos().values().stream().sorted(Comparator.comparingInt(OutputOperationInfo::id))
                .forEach(o -> j.object().field("id", o.id()).field("name", o.name())
                        .field("description", o.description()).field("startTime", o.startTime())
                        .field("endTime", o.endTime()).field("duration", o.duration())
                        .field("failureReason", o.failureReason()).end());
        j.end().key("jobs").array();
        for (StreamingStatus.SparkJob job : batch.jobs()) {
            j.object().field("id", job.id()).field("description", job.description()).end();
        }
        j.end();
        StateJson.batchState(j, b);
        return j.end().toString();
    }

    public String receivers() {
        List<BatchInfo> window = status.completedBatches();
        Map<String, StreamingStatus.Receiver> events = new java.util.HashMap<>();
        status.receivers().forEach(r -> events.put(r.source(), r));
        Json j = new Json().array();
        for (GraphView.SourceView s : graph.sources()) {
            StreamingStatus.Receiver r = s.receiver() == null ? null : events.get(s.receiver());
            BatchInfo last = window.isEmpty() ? null : window.get(window.size() - 1);
            BatchReport lastReport = last == null ? null : last.inputReports().get(s.name());
            j.object()
                    .field("name", s.name())
                    .field("id", s.id())
                    .field("kind", s.kind())
                    .field("receiver", s.receiver())
                    .field("status", r != null ? r.status() : s.receiver() == null ? "active" : "not started")
                    .field("reconnects", r == null ? 0 : r.reconnects())
                    .field("lastError", r == null ? null : r.lastError())
                    .field("lastErrorTime", r == null ? -1 : r.lastErrorTime())
                    .field("rateLimit", s.rateLimit().orElse(-1))
                    .field("lastBatchRecords", lastReport == null ? -1 : lastReport.records())
                    .field("avgInputRate", average(window, b -> {
                        BatchReport rep = b.inputReports().get(s.name());
                        return rep == null ? -1 : rate(rep.records());
                    }));
            j.key("inputRate").array();
            for (BatchInfo b : window) {
                BatchReport rep = b.inputReports().get(s.name());
                j.value(rep == null ? 0 : rate(rep.records()));
            }
            j.end().end();
        }
        return j.end().toString();
    }

    /** Per stateful operator: newest figures and checkpoint, a short history, series over the window. */
    public String state() {
        return StateJson.state(status, graph);
    }

    public String operators() {
        Json j = new Json().array();
        for (GraphView.OperatorView op : graph.operators()) {
            j.object().field("id", op.id()).field("kind", op.kind()).field("name", op.name())
                    .field("callSite", op.callSite()).field("input", op.input()).field("stateful", op.stateful());
            j.key("parents").array();
            op.parents().forEach(j::value);
            j.end().key("outputs").array();
            op.outputs().forEach(j::value);
            j.end().end();
        }
        return j.end().toString();
    }
}
