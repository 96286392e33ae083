package io.sluice.dstream.internal.ui;

import io.sluice.dstream.Clock;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.scheduler.ListenerBus;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.JobTags;
import io.sluice.rdd.internal.SparkMetrics;
import io.sluice.rdd.internal.SparkUiTab;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running context's observability, made at start and closed at stop: the status the listener bus feeds, the
 * Streaming tab in Spark's UI (none when Spark's UI is disabled), the gauges in Spark's metrics system, the Spark
 * jobs of each batch (heard on Spark's listener bus by their job group), and the HTML run report.
 */
public final class StreamingUi implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamingUi.class);

    private final SparkContext sc;
    private final ListenerBus listeners;
    private final StreamingStatus status;
    private final StatusJson json;
    private final SparkListener jobs;
    private final SparkMetrics metrics;
    private final Optional<SparkUiTab> tab;

    private StreamingUi(SparkContext sc, ListenerBus listeners, StreamingStatus status, StatusJson json,
            SparkListener jobs, SparkMetrics metrics, Optional<SparkUiTab> tab) {
        this.sc = sc;
        this.listeners = listeners;
        this.status = status;
        this.json = json;
        this.jobs = jobs;
        this.metrics = metrics;
        this.tab = tab;
    }

    /** Starts observing {@code graph} (its sources started), before its first batch is generated. */
    public static StreamingUi start(StreamGraph graph, ListenerBus listeners, Clock clock, int retainedBatches,
            Supplier<Optional<Time>> lastCheckpointed) {
        SparkContext sc = graph.sparkContext().sc();
        StreamingStatus status = new StreamingStatus(retainedBatches);
        GraphView view = GraphView.of(graph);
        view.sources().stream().filter(s -> s.receiver() != null).forEach(s -> status.expectReceiver(s.receiver()));
        listeners.add(status);
        StatusJson json = new StatusJson(status, view, graph.batchInterval().toMillis(), clock, lastCheckpointed);
        SparkListener jobs = new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart event) {
                String group = event.properties() == null ? null : event.properties().getProperty("spark.jobGroup.id");
                if (group != null && group.startsWith(JobTags.GROUP_PREFIX)) {
                    long batch = Long.parseLong(group.substring(JobTags.GROUP_PREFIX.length()));
                    status.jobStarted(batch, event.jobId(), event.properties().getProperty("spark.job.description"));
                }
            }
        };
        sc.addSparkListener(jobs);
        SparkMetrics metrics = SparkMetrics.register(sc, sc.appName() + ".StreamingMetrics",
                StreamingMetrics.registry(status, view, json, lastCheckpointed));
        Optional<SparkUiTab> tab;
        try {
            tab = SparkUiTab.attach(sc, new StreamingPage(json));
        } catch (RuntimeException e) { // a page that cannot attach must not stop the job
            LOG.warn("Could not attach the Streaming tab to Spark's UI; the job runs without it", e);
            tab = Optional.empty();
        }
        if (tab.isPresent()) {
            LOG.info("Streaming page: {}", tab.get().url());
        } else if (!sc.conf().getBoolean("spark.ui.enabled", true)) {
            LOG.info("Spark's UI is disabled (spark.ui.enabled=false): no Streaming page; the metrics and the run "
                    + "report are still there");
        }
        return new StreamingUi(sc, listeners, status, json, jobs, metrics, tab);
    }

    /** The Streaming page's address, if Spark's UI is on. */
    public Optional<String> url() {
        return tab.map(SparkUiTab::url);
    }

    /** Has every configured metrics sink report now. */
    public void reportMetrics() {
        metrics.report();
    }

    /** Writes the run report: one self-contained HTML file, the page's charts and tables on the recorded batches. */
    public void writeReport(Path file) throws IOException {
        String html = RunReport.html(sc.appName(), json, status);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, html, StandardCharsets.UTF_8);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Detaches the tab and the metrics; the status keeps what it recorded (a report can still be written). */
    @Override
    public void close() {
        tab.ifPresent(SparkUiTab::detach);
        metrics.report();
        metrics.remove();
        sc.removeSparkListener(jobs);
        listeners.remove(status);
    }
}
