package io.sluice.dstream.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.internal.SparkContexts;
import io.sluice.testkit.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext$;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice's gauges reach every sink configured in Spark's metrics system: here the CSV sink, on a SparkContext
 * the streaming context adopted (built first, as a notebook's or spark-submit's is). When the context stops,
 * the sinks report once more, so the files hold the figures of the last batch the listener heard.
 */
class StreamingMetricsTest {
    @TempDir
    Path dir;

    @Test
    void gaugesReachTheCsvSinkOfAnAdoptedSparkContext() throws Exception {
        SparkContext$.MODULE$.getActive().foreach(sc -> {
            sc.stop();
            return null;
        });
        Path csv = Files.createDirectories(dir.resolve("metrics"));
        SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("metrics-test")
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.metrics.conf.*.sink.csv.class", "org.apache.spark.metrics.sink.CsvSink")
                .set("spark.metrics.conf.*.sink.csv.period", "1")
                .set("spark.metrics.conf.*.sink.csv.unit", "minutes")
                .set("spark.metrics.conf.*.sink.csv.directory", csv.toString());
        JavaSparkContext jsc = SparkContexts.getOrCreate(conf);
        ManualClock clock = new ManualClock();
        StreamingContext ssc = StreamingContext.create(jsc, Duration.ofSeconds(1), clock);
        List<BatchInfo> heard = new ArrayList<>();
        try {
            ssc.generatorStream(500, 10, 3L).name("words").map(String::length).foreachRDD(rdd -> {
                rdd.count();
                clock.advance(Duration.ofMillis(30));
            });
            BlockingQueue<BatchInfo> completed = new LinkedBlockingQueue<>();
            ssc.addStreamingListener(new StreamingListener() {
                @Override
                public void onBatchCompleted(BatchCompleted event) {
                    completed.add(event.batchInfo());
                }
            });
            ssc.start();
            for (int b = 1; b <= 3; b++) {
                clock.setTime(b * 1000L);
                BatchInfo info = completed.poll(60, TimeUnit.SECONDS);
                assertTrue(info != null, "batch " + b + " did not complete");
                heard.add(info);
            }
            ssc.stop(false, false); // the sinks report at stop
            BatchInfo last = heard.get(2);
            assertEquals(3, gauge(csv, "StreamingMetrics.streaming.completedBatches"));
            assertEquals(0, gauge(csv, "StreamingMetrics.streaming.failedBatches"));
            assertEquals(1500, gauge(csv, "StreamingMetrics.streaming.totalRecords"));
            assertEquals(last.numRecords(), gauge(csv, "StreamingMetrics.streaming.lastCompletedBatch.records"));
            assertEquals(last.processingDelay(), gauge(csv,
                    "StreamingMetrics.streaming.lastCompletedBatch.processingTime"));
            assertEquals(last.totalDelay(), gauge(csv, "StreamingMetrics.streaming.lastCompletedBatch.totalDelay"));
            assertEquals(30, gauge(csv, "StreamingMetrics.streaming.avgProcessingTime"));
            assertEquals(500, gauge(csv, "StreamingMetrics.source.words.inputRate"));
        } finally {
            ssc.stop(false, false);
            jsc.stop();
        }
    }

    /** The last value the CSV sink wrote for the metric whose file name ends with {@code name}. */
    private static double gauge(Path dir, String name) throws IOException {
        List<String> names = list(dir);
        String file = names.stream().filter(f -> f.endsWith("." + name + ".csv")).findFirst()
                .orElseThrow(() -> new AssertionError("no CSV file for " + name + " in " + names));
        List<String> lines = Files.readAllLines(dir.resolve(file));
        String lastLine = lines.get(lines.size() - 1);
        return Double.parseDouble(lastLine.substring(lastLine.indexOf(',') + 1));
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }
}
