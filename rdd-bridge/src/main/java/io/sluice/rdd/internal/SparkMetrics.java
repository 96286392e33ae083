package io.sluice.rdd.internal;

import com.codahale.metrics.MetricRegistry;
import org.apache.spark.SparkContext;
import org.apache.spark.metrics.source.Source;

/**
 * Registers a registry of metrics with the driver's metrics system, as Spark Streaming registers its
 * {@code StreamingSource}: every sink the user configured (JMX, Prometheus servlet, CSV, Graphite, ...) then
 * reports them, named {@code <app id>.driver.<source name>.<metric>}. The metrics system lives in SparkEnv
 * (private to Spark), so it is reached here only. Works the same on a SparkContext the application adopted.
 */
public final class SparkMetrics {
    private final SparkContext sc;
    private final Source source;

    private SparkMetrics(SparkContext sc, Source source) {
        this.sc = sc;
        this.source = source;
    }

    public static SparkMetrics register(SparkContext sc, String sourceName, MetricRegistry registry) {
        Source source = new Source() {
            @Override
            public String sourceName() {
                return sourceName;
            }

            @Override
            public MetricRegistry metricRegistry() {
                return registry;
            }
        };
        sc.env().metricsSystem().registerSource(source);
        return new SparkMetrics(sc, source);
    }

    /** Has every sink report now (sinks otherwise report on their own period): for tests and at stop. */
    public void report() {
        if (!sc.isStopped()) {
            sc.env().metricsSystem().report();
        }
    }

    public void remove() {
        if (!sc.isStopped()) {
            sc.env().metricsSystem().removeSource(source);
        }
    }
}
