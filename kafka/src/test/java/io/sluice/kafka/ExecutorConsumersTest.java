package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/** What executors read with, as Spark's fixKafkaParams makes it, and how many consumers they keep. */
class ExecutorConsumersTest {
    private static Map<String, Object> params(String group) {
        Map<String, Object> params = new HashMap<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, true,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.RECEIVE_BUFFER_CONFIG, 1024));
        if (group != null) {
            params.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        return params;
    }

    @Test
    void executorsNeverCommitNorResetAndReadInTheirOwnGroupAsSparksDo() {
        Map<String, Object> fixed = KafkaUtils.executorParams(params("counts"));
        assertEquals(false, fixed.get(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG));
        assertEquals("none", fixed.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG));
        assertEquals("spark-executor-counts", fixed.get(ConsumerConfig.GROUP_ID_CONFIG));
        assertEquals(65536, fixed.get(ConsumerConfig.RECEIVE_BUFFER_CONFIG));
        // Spark concatenates a missing group as "null" (and logs an error): ACLs written for Spark name that group
        assertEquals("spark-executor-null", KafkaUtils.executorParams(params(null)).get(ConsumerConfig.GROUP_ID_CONFIG));
    }

    @Test
    void thePoolKeepsOneConsumerPerPartitionUpToItsCapacityClosingTheLeastRecentlyReturned() {
        ConsumerPool pool = new ConsumerPool(KafkaUtils.executorParams(params("pool")), 2, 16, 0.75f);
        TopicPartition p0 = new TopicPartition("t", 0);
        TopicPartition p1 = new TopicPartition("t", 1);
        TopicPartition p2 = new TopicPartition("t", 2);
        KafkaConsumer<String, String> c0 = pool.take(p0);
        KafkaConsumer<String, String> c1 = pool.take(p1);
        KafkaConsumer<String, String> c2 = pool.take(p2);
        pool.giveBack(p0, c0);
        pool.giveBack(p1, c1);
        assertSame(c1, pool.take(p1), "a task reading the same partition reuses its consumer");
        pool.giveBack(p1, c1);
        pool.giveBack(p2, c2); // over capacity: p0's consumer, returned longest ago, is closed
        assertEquals(2, pool.idleCount());
        KafkaConsumer<String, String> again = pool.take(p0);
        assertNotSame(c0, again);
        again.close();
        assertSame(c2, pool.take(p2));
        c2.close();
        pool.close();
    }
}
