package io.sluice.dstream.internal.ui;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StateCheckpointInfo;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.dstream.source.BatchReport;
import io.sluice.rdd.Time;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The gauges Sluice registers in Spark's metrics system (source {@code <app name>.StreamingMetrics}, as Spark
 * Streaming's): batch counts and records, the last completed batch's and the retained window's average delays,
 * per source its last input rate and rate limit, checkpoint progress, and per stateful operator its keys, bytes
 * and last state checkpoint. Every gauge reads {@link StreamingStatus} when a sink polls it.
 */
final class StreamingMetrics {
    private StreamingMetrics() {
    }

    static MetricRegistry registry(StreamingStatus status, GraphView graph, StatusJson rates,
            Supplier<Optional<Time>> lastCheckpointed) {
        MetricRegistry r = new MetricRegistry();
        gauge(r, "streaming.completedBatches", () -> status.totals().completed());
        gauge(r, "streaming.failedBatches", () -> status.totals().failed());
        gauge(r, "streaming.totalRecords", () -> status.totals().records());
        gauge(r, "streaming.activeBatches", () -> (long) status.activeBatches().size());
        gauge(r, "streaming.lastCompletedBatch.time", () -> status.totals().lastCompletedBatch());
        last(r, status, "lastCompletedBatch.records", b -> b.numRecords());
        last(r, status, "lastCompletedBatch.schedulingDelay", BatchInfo::schedulingDelay);
        last(r, status, "lastCompletedBatch.processingTime", BatchInfo::processingDelay);
        last(r, status, "lastCompletedBatch.totalDelay", BatchInfo::totalDelay);
        average(r, status, "avgSchedulingDelay", BatchInfo::schedulingDelay);
        average(r, status, "avgProcessingTime", BatchInfo::processingDelay);
        average(r, status, "avgTotalDelay", BatchInfo::totalDelay);
        average(r, status, "avgInputRate", b -> rates.rate(b.numRecords()));
        gauge(r, "streaming.lastCheckpointedBatch", () -> lastCheckpointed.get().map(Time::milliseconds).orElse(-1L));
        for (GraphView.SourceView s : graph.sources()) {
            String prefix = "source." + MetricRegistry.name(sanitize(s.id()));
            gauge(r, prefix + ".inputRate", () -> {
                List<BatchInfo> window = status.completedBatches();
                BatchReport rep = window.isEmpty() ? null : window.get(window.size() - 1).inputReports().get(s.name());
                return rep == null ? 0.0 : rates.rate(rep.records());
            });
            if (s.operator() != null) {
                gauge(r, prefix + ".rateLimit", () -> s.rateLimit().orElse(-1));
            }
        }
        for (GraphView.OperatorView op : graph.operators()) {
            if (op.stateful()) {
                state(r, status, op.id());
            }
        }
        return r;
    }

    /**
     * A stateful operator's gauges: keys, estimated bytes and timed-out keys of the newest batch that reported
     * them, and the newest checkpoint's write time and bytes (-1 until known).
     */
    private static void state(MetricRegistry r, StreamingStatus status, String id) {
        String prefix = "state." + MetricRegistry.name(sanitize(id));
        gauge(r, prefix + ".keys", () -> latest(status, id, StateOperatorInfo::numKeys));
        gauge(r, prefix + ".bytes", () -> latest(status, id, StateOperatorInfo::estimatedBytes));
        gauge(r, prefix + ".timedOutKeys", () -> latest(status, id, StateOperatorInfo::timedOutKeys));
        gauge(r, prefix + ".lastCheckpointDurationMs", () -> lastCheckpoint(status, id).map(
                StateCheckpointInfo::writeMillis).orElse(-1L));
        gauge(r, prefix + ".lastCheckpointBytes", () -> lastCheckpoint(status, id).map(
                StateCheckpointInfo::bytesWritten).orElse(-1L));
    }

    private static long latest(StreamingStatus status, String id, ToLongFunction<StateOperatorInfo> f) {
        StateOperatorInfo s = status.latestState().get(id);
        return s == null || s.reportedPartitions() == 0 ? -1 : f.applyAsLong(s);
    }

    private static Optional<StateCheckpointInfo> lastCheckpoint(StreamingStatus status, String id) {
        return Optional.ofNullable(status.latestStateCheckpoints().get(id)).map(StateOperatorInfo::checkpoint);
    }

    /** Metric names are dot-separated paths; an id such as {@code #0-queueStream} keeps only safe characters. */
    static String sanitize(String id) {
        return id.replaceAll("[^A-Za-z0-9_-]", "_");
    }

    private static <T> void gauge(MetricRegistry r, String name, Gauge<T> gauge) {
        r.register(name, gauge);
    }

    private static void last(MetricRegistry r, StreamingStatus status, String name, ToDoubleFunction<BatchInfo> f) {
        gauge(r, "streaming." + name, () -> {
            List<BatchInfo> window = status.completedBatches();
            return window.isEmpty() ? -1L : (long) f.applyAsDouble(window.get(window.size() - 1));
        });
    }

    private static void average(MetricRegistry r, StreamingStatus status, String name, ToDoubleFunction<BatchInfo> f) {
        gauge(r, "streaming." + name, () -> StatusJson.average(status.completedBatches(), f));
    }
}
