package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.rdd.Time;
import io.sluice.testkit.StreamTester;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.spark.TaskContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/** The transactional sink: one transaction per batch and partition, a batch run again writes nothing twice. */
class TransactionalSinkTest {
    private static TestBroker broker;

    @BeforeAll
    static void startBroker() throws IOException {
        broker = new TestBroker();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static Map<String, Object> producerParams(String transactionalId) {
        return KafkaSink.checked("unused", Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId));
    }

    private static boolean write(String topic, String id, long time, List<String> values) {
        return new BatchTransaction<String, String>(topic, id, producerParams(id), new Time(time))
                .write(values.iterator(), (String v) -> new Tuple2<>(null, v));
    }

    @Test
    void aBatchWrittenAgainIsSkippedAndALaterOneWritten() {
        broker.createTopic("rerun", 1);
        assertTrue(write("rerun", "rerun-0", 1000, List.of("a", "b")));
        assertFalse(write("rerun", "rerun-0", 1000, List.of("a", "b")), "batch 1000 ms is already committed");
        assertTrue(write("rerun", "rerun-0", 2000, List.of("c")));
        assertFalse(write("rerun", "rerun-0", 1000, List.of("a", "b")), "an older batch is committed too");
        assertEquals(List.of("a", "b", "c"), readCommitted("rerun"));
    }

    @Test
    void aNewWriterFencesAZombieAndAbortsWhatItWrote() {
        broker.createTopic("zombie", 1);
        Map<String, Object> params = new HashMap<>(producerParams("zombie-0"));
        try (KafkaProducer<String, String> zombie = new KafkaProducer<>(params)) {
            zombie.initTransactions();
            zombie.beginTransaction();
            zombie.send(new ProducerRecord<>("zombie", "z1"));
            zombie.flush(); // written, not committed: a driver killed during the batch
            assertTrue(write("zombie", "zombie-0", 1000, List.of("x", "y")));
            assertThrows(ProducerFencedException.class, zombie::commitTransaction);
        }
        assertEquals(List.of("x", "y"), readCommitted("zombie"));
    }

    @Test
    void aStreamWritesEachBatchPartitionInItsOwnTransaction() {
        broker.createTopic("sunk", 2);
        try (StreamTester tester = new StreamTester().partitions(2)) {
            KafkaSink.writeTransactionally(tester.input(List.of(List.of("a", "b", "c"), List.of(), List.of("d"))),
                    "sunk", producerParams("stream-sink"), (String v) -> new Tuple2<>(v, v.toUpperCase()));
            tester.runBatches(3).forEach(info -> assertFalse(info.failed(), info.toString()));
        }
        List<String> values = new ArrayList<>(readCommitted("sunk"));
        values.sort(null);
        assertEquals(List.of("A", "B", "C", "D"), values);
    }

    @Test
    void aTaskRetriedAfterWritingPartOfItsPartitionWritesEachRecordOnce() {
        broker.createTopic("retried", 1);
        try (StreamTester tester = new StreamTester().partitions(1)) {
            KafkaSink.writeTransactionally(tester.input(List.of(List.of("a", "b", "boom", "c"))), "retried",
                    producerParams("retried-sink"), (String v) -> {
                        if (v.equals("boom") && TaskContext.get().attemptNumber() == 0) {
                            throw new IllegalStateException("the first attempt fails after writing a and b");
                        }
                        return new Tuple2<>(null, v);
                    });
            tester.runBatches(1).forEach(info -> assertFalse(info.failed(), info.toString()));
        }
        assertEquals(List.of("a", "b", "boom", "c"), readCommitted("retried"));
    }

    @Test
    void aSinkWithoutATransactionalIdSaysWhatToSet() {
        try (StreamTester tester = new StreamTester()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> KafkaSink.writeTransactionally(tester.input(List.of(List.of("a"))), "out",
                            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()),
                            (String v) -> new Tuple2<>(v, v)));
            assertTrue(e.getMessage().contains("KafkaSink to out: set transactional.id"), e.getMessage());
        }
    }

    /** Every value of {@code topic} a {@code read_committed} consumer sees, partition by partition. */
    static List<String> readCommitted(String topic) {
        return read(broker, topic, "read_committed");
    }

    /** Every value of {@code topic} a consumer with {@code isolation} sees, partition by partition. */
    static List<String> read(TestBroker broker, String topic, String isolation) {
        Map<String, Object> params = new HashMap<>(broker.consumerParams("reader"));
        params.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(params, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).sorted(
                            java.util.Comparator.comparingInt(TopicPartition::partition)).toList();
            for (TopicPartition tp : partitions) {
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                long end = consumer.endOffsets(List.of(tp)).get(tp); // read_committed: the last stable offset
                while (consumer.position(tp) < end) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                        values.add(r.value());
                    }
                }
            }
        }
        return values;
    }
}
