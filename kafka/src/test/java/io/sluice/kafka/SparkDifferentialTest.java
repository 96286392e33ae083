package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.DStream;
import io.sluice.dstream.testing.SparkStreamingRun;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.io.IOException;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.spark.streaming.api.java.JavaDStream;
import org.apache.spark.streaming.api.java.JavaInputDStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * The same program on Spark Streaming's {@code spark-streaming-kafka-0-10} and on Sluice, over the same topic and
 * broker, with the same per-partition rate limit: every batch has the same records and the same word counts. The
 * Sluice side is the Spark program with its imports changed.
 */
class SparkDifferentialTest {
    private static final int BATCHES = 4;
    private static TestBroker broker;

    @BeforeAll
    static void startBroker() throws IOException {
        broker = new TestBroker();
        broker.createTopic("shared", 3);
        for (int p = 0; p < 3; p++) {
            int partition = p;
            broker.send("shared", p, IntStream.range(0, 7 + 4 * p).mapToObj(i -> "w" + (i * partition) % 5).toList());
        }
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void batchesAndCountsEqualSparkStreamingsKafkaConnector() {
        List<List<String>> spark;
        List<List<Tuple2<String, Long>>> sparkCounts;
        try (SparkStreamingRun run = new SparkStreamingRun(2)) {
            JavaInputDStream<ConsumerRecord<String, String>> stream =
                    org.apache.spark.streaming.kafka010.KafkaUtils.createDirectStream(run.context(),
                            org.apache.spark.streaming.kafka010.LocationStrategies.PreferConsistent(),
                            org.apache.spark.streaming.kafka010.ConsumerStrategies.<String, String>Subscribe(
                                    List.of("shared"), broker.consumerParams("spark")),
                            new org.apache.spark.streaming.kafka010.PerPartitionConfig() {
                                @Override
                                public long maxRatePerPartition(TopicPartition topicPartition) {
                                    return 4;
                                }
                            });
            JavaDStream<String> described = stream.map(r -> r.partition() + ":" + r.offset() + ":" + r.value());
            Collected<String> records = run.collect(described);
            Collected<Tuple2<String, Long>> counts = run.collect(stream.map(ConsumerRecord::value).countByValue());
            run.runBatches(BATCHES);
            spark = records.batches();
            sparkCounts = counts.batches();
        }
        try (StreamTester tester = new StreamTester()) {
            DStream<ConsumerRecord<String, String>> stream = KafkaUtils.createDirectStream(tester.context(),
                    LocationStrategies.PreferConsistent(),
                    ConsumerStrategies.<String, String>Subscribe(List.of("shared"), broker.consumerParams("sluice")),
                    new PerPartitionConfig() {
                        @Override
                        public long maxRatePerPartition(TopicPartition topicPartition) {
                            return 4;
                        }
                    });
            DStream<String> described = stream.map(r -> r.partition() + ":" + r.offset() + ":" + r.value());
            Collected<String> records = tester.collect(described);
            Collected<Tuple2<String, Long>> counts = tester.collect(stream.map(ConsumerRecord::value).countByValue());
            tester.runBatches(BATCHES);

            assertEquals(Collected.multisets(spark), records.unordered());
            assertEquals(Collected.multisets(sparkCounts), counts.unordered());
            assertEquals(3 * 4, records.batches().get(0).size(), "the rate limit split the topic into batches");
        }
    }
}
