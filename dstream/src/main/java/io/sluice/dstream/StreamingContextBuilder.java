package io.sluice.dstream;

import io.sluice.rdd.internal.SparkContexts;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkConf;
import scala.Tuple2;

/** Builds a {@link StreamingContext} and, unless one is running, the SparkContext under it. */
public final class StreamingContextBuilder {
    private final Map<String, String> conf = new LinkedHashMap<>();
    private String master;
    private String appName = "sluice";
    private Duration batchInterval;
    private Clock clock = Clock.system();

    StreamingContextBuilder() {
    }

    /** Spark master URL; default {@code local[*]} unless spark-submit (or a spark.master property) set one. */
    public StreamingContextBuilder master(String master) {
        this.master = master;
        return this;
    }

    public StreamingContextBuilder appName(String appName) {
        this.appName = appName;
        return this;
    }

    public StreamingContextBuilder batchInterval(Duration batchInterval) {
        this.batchInterval = batchInterval;
        return this;
    }

    /** Any Spark or Sluice setting. */
    public StreamingContextBuilder conf(String key, String value) {
        conf.put(key, value);
        return this;
    }

    /**
     * Every setting of {@code sparkConf}, as {@code new JavaStreamingContext(sparkConf, interval)} takes them. Its
     * master and app name count as calls of {@link #master} and {@link #appName}: a later call wins.
     */
    public StreamingContextBuilder conf(SparkConf sparkConf) {
        for (Tuple2<String, String> entry : sparkConf.getAll()) {
            switch (entry._1()) {
                case "spark.master" -> master = entry._2();
                case "spark.app.name" -> appName = entry._2();
                default -> conf.put(entry._1(), entry._2());
            }
        }
        return this;
    }

    public StreamingContextBuilder clock(Clock clock) {
        this.clock = clock;
        return this;
    }

    public StreamingContext build() {
        if (batchInterval == null) {
            throw new IllegalStateException("set the batch interval: StreamingContext.builder().batchInterval(...)");
        }
        // getOrCreate adopts a running SparkContext (whose settings then win): this context owns only one it made.
        boolean running = SparkContexts.isRunning();
        return new StreamingContext(SparkContexts.getOrCreate(sparkConf()), !running, batchInterval, clock);
    }

    /** The settings a new SparkContext would get, before Sluice's defaults are filled in. */
    SparkConf sparkConf() {
        SparkConf sparkConf = new SparkConf().setAppName(appName);
        conf.forEach(sparkConf::set);
        if (master != null) {
            sparkConf.setMaster(master);
        }
        return sparkConf;
    }
}
