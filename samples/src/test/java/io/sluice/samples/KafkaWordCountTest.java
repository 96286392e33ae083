package io.sluice.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.kafka.ConsumerStrategies;
import io.sluice.kafka.KafkaUtils;
import io.sluice.kafka.LocationStrategies;
import io.sluice.kafka.TestBroker;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/** The Kafka word count against a real broker (Kafka's test broker), batch by batch on the test kit's clock. */
class KafkaWordCountTest {
    private static Map<String, Integer> counts(List<Tuple2<String, Integer>> batch) {
        Map<String, Integer> counts = new HashMap<>();
        batch.forEach(t -> counts.put(t._1(), t._2()));
        return counts;
    }

    @Test
    void countsTheWordsOfEachBatchsRecordsAcrossPartitions() throws Exception {
        try (TestBroker broker = new TestBroker(); StreamTester tester = new StreamTester()) {
            broker.createTopic("lines", 2);
            broker.send("lines", 0, List.of("to be or", "not to be"));
            broker.send("lines", 1, List.of("that is the question"));
            Map<String, Object> params = new HashMap<>(KafkaWordCount.kafkaParams(broker.bootstrap(), "word-count"));
            params.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"); // the lines were written before start
            Collected<Tuple2<String, Integer>> out = tester.collect(KafkaWordCount.wordCounts(
                    KafkaUtils.createDirectStream(tester.context(), LocationStrategies.PreferConsistent(),
                            ConsumerStrategies.<String, String>Subscribe(Set.of("lines"), params))));
            tester.runBatch();
            broker.send("lines", 1, List.of("be quick"));
            tester.runBatch();

            assertEquals(Map.of("to", 2, "be", 2, "or", 1, "not", 1, "that", 1, "is", 1, "the", 1, "question", 1),
                    counts(out.batches().get(0)));
            assertEquals(Map.of("be", 1, "quick", 1), counts(out.batches().get(1)));
        }
    }
}
