package io.sluice.dstream.internal.ui;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.source.BatchReport;
import io.sluice.rdd.Time;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The gauges Sluice registers in Spark's metrics system (source {@code <app name>.StreamingMetrics}, as Spark
 * Streaming's): batch counts and records, the last completed batch's and the retained window's average delays,
 * per source its last input rate and rate limit, and checkpoint progress. Every gauge reads {@link
 * StreamingStatus} when a sink polls it.
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
        return r;
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
