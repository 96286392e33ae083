package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.StreamingContextBuilder;
import io.sluice.kafka.TestBroker;
import io.sluice.state.StateSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.streaming.Durations;
import org.apache.spark.streaming.api.java.JavaDStream;
import org.apache.spark.streaming.api.java.JavaStreamingContext;
import org.apache.spark.streaming.scheduler.StreamingListener;
import org.apache.spark.streaming.scheduler.StreamingListenerBatchCompleted;
import scala.Tuple2;

/**
 * K1: a Kafka direct stream over a topic of 4 partitions pre-filled with the standard words (batch b's records
 * of partition p are exactly {@link BenchRecords#word}'s records of the standard input), read by each side's own
 * connector (Sluice's {@code io.sluice.kafka}, Spark's {@code spark-streaming-kafka-0-10} 4.2.0) from the
 * earliest offsets, {@code maxRatePerPartition} 33,333/s, so every batch of 3 s holds 99,999 records per
 * partition on both sides. Into a count ({@code K1}) or mapWithState running counts as W2 ({@code K1s}). The
 * figure is records per batch over the median processing time of the counted batches, as for W1.
 *
 * <p>The broker is Kafka's test broker (KRaft, from Maven artifacts, on 127.0.0.1) started in the side's JVM
 * and filled the same way for each side before its context starts, so no side reads a topic the other warmed.
 */
final class KafkaIngestion implements Workload {
    private static final String TOPIC = "words";
    private static final int PARTITIONS = 4;
    private static final long RATE_PER_PARTITION = 33_333;
    private static final int KEYS = 200_000;

    private final boolean state;

    private KafkaIngestion(boolean state) {
        this.state = state;
    }

    static KafkaIngestion count() {
        return new KafkaIngestion(false);
    }

    static KafkaIngestion mapWithState() {
        return new KafkaIngestion(true);
    }

    @Override
    public String id() {
        return state ? "K1s" : "K1";
    }

    @Override
    public String description() {
        return state ? "Kafka direct stream (4 partitions) → mapToPair → mapWithState running count → count"
                : "Kafka direct stream (4 partitions) → count";
    }

    @Override
    public Figure figure() {
        return Figure.THROUGHPUT;
    }

    @Override
    public double target() {
        return 1.5;
    }

    /** Records per partition per batch: what maxRatePerPartition lets through in one interval. */
    static long perPartition(Duration interval) {
        return (long) (interval.toMillis() / 1000.0 * RATE_PER_PARTITION);
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        long perPartition = perPartition(settings.interval());
        BatchTimes times = new BatchTimes(settings.batches());
        Map<String, String> conf = StandardRun.sparkSettings(settings, id() + "-" + side.name().toLowerCase());
        conf.put("spark.streaming.kafka.maxRatePerPartition", Long.toString(RATE_PER_PARTITION));
        Duration timeout = settings.interval().multipliedBy(settings.batches() + 10L).plusMinutes(2);
        Path checkpoints = state ? Files.createTempDirectory("sluice-bench-") : null;
        try (TestBroker broker = new TestBroker()) {
            fill(broker, settings.batches(), perPartition);
            Map<String, Object> params = new HashMap<>(broker.consumerParams("k1-" + side.name().toLowerCase()));
            params.remove("metadata.max.age.ms"); // the test broker's short age polls metadata; use Kafka's default
            if (side == Side.SLUICE) {
                runOnSluice(settings, conf, params, checkpoints, times, timeout);
            } else {
                runOnSparkStreaming(settings, conf, params, checkpoints, times, timeout);
            }
        } finally {
            if (checkpoints != null) {
                try (Stream<Path> paths = Files.walk(checkpoints)) {
                    for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
        List<Long> counted = times.counted(settings.warmup(), settings.batches());
        double medianMs = BatchTimes.median(counted);
        long records = perPartition * PARTITIONS;
        return new Measurement(records / (Math.max(medianMs, 1.0) / 1000.0),
                StandardRun.digest(BenchOutput.first(settings.batches())),
                records + " records per batch; median " + medianMs + " ms over " + counted.size()
                        + " counted batches " + counted);
    }

    /** Batch b's records of partition p, for every batch, in order. */
    private static void fill(TestBroker broker, int batches, long perPartition) {
        broker.createTopic(TOPIC, PARTITIONS);
        for (int b = 0; b < batches; b++) {
            for (int p = 0; p < PARTITIONS; p++) {
                List<String> words = new ArrayList<>((int) perPartition);
                for (long i = 0; i < perPartition; i++) {
                    words.add(BenchRecords.word(b, p, i, KEYS));
                }
                broker.send(TOPIC, p, words);
            }
        }
    }

    private void runOnSluice(BenchSettings settings, Map<String, String> conf, Map<String, Object> params,
            Path checkpoints, BatchTimes times, Duration timeout) throws Exception {
        StreamingContextBuilder builder = StreamingContext.builder().batchInterval(settings.interval());
        conf.forEach(builder::conf);
        StreamingContext ssc = builder.build();
        try {
            ssc.sparkContext().setLogLevel("WARN");
            if (checkpoints != null) {
                ssc.checkpoint(checkpoints.toString());
            }
            DStream<String> words = io.sluice.kafka.KafkaUtils.createDirectStream(ssc,
                    io.sluice.kafka.LocationStrategies.PreferConsistent(),
                    io.sluice.kafka.ConsumerStrategies.<String, String>Subscribe(List.of(TOPIC), params))
                    .map(ConsumerRecord::value);
            if (state) {
                words.mapToPair(w -> new Tuple2<>(w, 1))
                        .mapWithState(StateSpec.function(MapWithStateWorkload::count).numPartitions(4))
                        .count()
                        .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
            } else {
                words.count().foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
            }
            ssc.addStreamingListener(new io.sluice.dstream.scheduler.StreamingListener() {
                @Override
                public void onBatchCompleted(BatchCompleted event) {
                    times.completed(event.batchInfo().processingDelay(),
                            event.batchInfo().failed() ? "batch " + event.batchInfo().batchTime() : null);
                }
            });
            ssc.start();
            times.await(timeout);
        } finally {
            ssc.stop(true, false);
        }
    }

    private void runOnSparkStreaming(BenchSettings settings, Map<String, String> conf, Map<String, Object> params,
            Path checkpoints, BatchTimes times, Duration timeout) throws Exception {
        SparkConf sparkConf = new SparkConf();
        conf.forEach(sparkConf::set);
        JavaStreamingContext ssc = new JavaStreamingContext(new JavaSparkContext(sparkConf),
                Durations.milliseconds(settings.interval().toMillis()));
        try {
            ssc.sparkContext().setLogLevel("WARN");
            if (checkpoints != null) {
                ssc.sparkContext().setCheckpointDir(checkpoints.toString()); // as StandardRun: RDD checkpoints only
            }
            JavaDStream<String> words = org.apache.spark.streaming.kafka010.KafkaUtils.createDirectStream(ssc,
                    org.apache.spark.streaming.kafka010.LocationStrategies.PreferConsistent(),
                    org.apache.spark.streaming.kafka010.ConsumerStrategies.<String, String>Subscribe(List.of(TOPIC),
                            params))
                    .map(ConsumerRecord::value);
            if (state) {
                words.mapToPair(w -> new Tuple2<>(w, 1))
                        .mapWithState(org.apache.spark.streaming.StateSpec.function(MapWithStateWorkload::countOnSpark)
                                .numPartitions(4))
                        .count()
                        .foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
            } else {
                words.count().foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
            }
            ssc.addStreamingListener(new StreamingListener() {
                @Override
                public void onBatchCompleted(StreamingListenerBatchCompleted event) {
                    times.completed((Long) event.batchInfo().processingDelay().get(), null);
                }
            });
            ssc.start();
            times.await(timeout);
        } finally {
            ssc.stop(true, false);
        }
    }
}
