package io.sluice.dstream.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.internal.SparkContexts;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.ManualClock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext$;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * Sluice's gauges reach every sink configured in Spark's metrics system: here the CSV sink, on a SparkContext
 * the streaming context adopted (built first, as a notebook's or spark-submit's is). When the context stops,
 * the sinks report once more, so the files hold the figures of the last batch the listener heard. Stateful
 * operators get gauges of their own, and their figures are in the Streaming page's endpoints.
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

    /**
     * A mapWithState with a 1 s timeout and a state checkpoint every batch, on a context with Spark's UI on: the
     * Streaming page's {@code state} and batch endpoints, and the CSV sink's per-operator gauges, give the figures
     * the listener heard in the batches' {@code stateOperatorInfos}.
     */
    @Test
    void stateFiguresReachTheEndpointsAndTheCsvSink() throws Exception {
        SparkContext$.MODULE$.getActive().foreach(sc -> {
            sc.stop();
            return null;
        });
        Path csv = Files.createDirectories(dir.resolve("state-metrics"));
        SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("state-metrics-test")
                .set("spark.ui.enabled", "true").set("spark.ui.port", "0")
                .set("spark.ui.showConsoleProgress", "false")
                .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.metrics.conf.*.sink.csv.class", "org.apache.spark.metrics.sink.CsvSink")
                .set("spark.metrics.conf.*.sink.csv.period", "1")
                .set("spark.metrics.conf.*.sink.csv.unit", "minutes")
                .set("spark.metrics.conf.*.sink.csv.directory", csv.toString());
        JavaSparkContext jsc = SparkContexts.getOrCreate(conf);
        ManualClock clock = new ManualClock();
        StreamingContext ssc = StreamingContext.create(jsc, Duration.ofSeconds(1), clock);
        try {
            ssc.checkpoint(dir.resolve("checkpoints").toString());
            Queue<JavaRDD<String>> input = new ArrayDeque<>(List.of(jsc.parallelize(List.of("a", "b")),
                    jsc.parallelize(List.of("a", "c")), jsc.parallelize(List.<String>of())));
            ssc.queueStream(input).mapToPair(w -> new Tuple2<>(w, 1))
                    .mapWithState(StateSpec.function((String k, Optional<Integer> v, State<Integer> s) -> {
                        if (!s.isTimingOut()) {
                            s.update(s.getOption().orElse(0) + v.get());
                        }
                        return k;
                    }).timeout(Duration.ofSeconds(1)).numPartitions(2))
                    .name("counts").checkpoint(Duration.ofSeconds(1))
                    .foreachRDD(rdd -> {
                        rdd.count();
                    });
            BlockingQueue<BatchInfo> completed = new LinkedBlockingQueue<>();
            ssc.addStreamingListener(new StreamingListener() {
                @Override
                public void onBatchCompleted(BatchCompleted event) {
                    completed.add(event.batchInfo());
                }
            });
            ssc.start();
            List<StateOperatorInfo> heard = new ArrayList<>();
            for (int b = 1; b <= 3; b++) {
                clock.setTime(b * 1000L);
                BatchInfo info = completed.poll(60, TimeUnit.SECONDS);
                assertTrue(info != null, "batch " + b + " did not complete");
                heard.add(info.stateOperatorInfos().get("counts"));
            }
            // batch 1: a b; batch 2: a b c; batch 3: b (idle since batch 1, for more than 1 s) times out
            assertEquals(List.of(2L, 3L, 2L), heard.stream().map(StateOperatorInfo::numKeys).toList());
            assertEquals(List.of(0L, 0L, 1L), heard.stream().map(StateOperatorInfo::timedOutKeys).toList());
            StateOperatorInfo last = heard.get(2);
            assertEquals("full", heard.get(0).checkpoint().kind());

            String api = ssc.uiUrl().orElseThrow() + "api/";
            ObjectMapper mapper = new ObjectMapper();
            JsonNode state = mapper.readTree(get(api + "state")).get(0);
            assertEquals("counts", state.get("id").asText());
            assertEquals(2, state.get("latest").get("keys").asLong());
            assertEquals(1, state.get("latest").get("timedOut").asLong());
            assertEquals(last.estimatedBytes(), state.get("latest").get("bytes").asLong());
            assertEquals(last.checkpoint().bytesWritten(), state.get("lastCheckpoint").get("bytes").asLong());
            assertEquals(3, state.get("history").size());
            assertEquals("[2,3,2]", state.get("series").get("keys").toString());
            JsonNode first = mapper.readTree(get(api + "batches/" + heard.get(0).batchTime().milliseconds()))
                    .get("state").get(0);
            assertEquals(2, first.get("keys").asLong());
            assertEquals("full", first.get("checkpoint").get("kind").asText());
            assertEquals(heard.get(0).checkpoint().bytesWritten(), first.get("checkpoint").get("bytes").asLong());

            ssc.stop(false, false); // the sinks report at stop
            assertEquals(2, gauge(csv, "StreamingMetrics.state.counts.keys"));
            assertEquals(1, gauge(csv, "StreamingMetrics.state.counts.timedOutKeys"));
            assertEquals(last.estimatedBytes(), gauge(csv, "StreamingMetrics.state.counts.bytes"));
            assertEquals(last.checkpoint().bytesWritten(), gauge(csv,
                    "StreamingMetrics.state.counts.lastCheckpointBytes"));
            assertEquals(last.checkpoint().writeMillis(), gauge(csv,
                    "StreamingMetrics.state.counts.lastCheckpointDurationMs"));
        } finally {
            ssc.stop(false, false);
            jsc.stop();
        }
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), url + ": " + response.body());
        return response.body();
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
