package io.sluice.kafka;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The consumers an executor keeps between batches, one idle consumer per topic partition (Spark's cached
 * {@code KafkaDataConsumer}): a task takes the idle one or opens its own, and gives it back when it has read
 * its whole range. A stream ships its pool to executors as a broadcast variable, so each executor JVM holds one
 * instance (the broadcast's value) without any static; the driver closes it (in local mode, the executors' one
 * too) when the stream stops, and executors' consumers close with their JVM.
 */
final class ConsumerPool implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Map<String, Object> kafkaParams;
    private transient Map<TopicPartition, KafkaConsumer<?, ?>> idle;
    private transient boolean closed;

    ConsumerPool(Map<String, Object> executorKafkaParams) {
        this.kafkaParams = new HashMap<>(executorKafkaParams);
    }

    Map<String, Object> kafkaParams() {
        return kafkaParams;
    }

    @SuppressWarnings("unchecked")
    synchronized <K, V> KafkaConsumer<K, V> take(TopicPartition partition) {
        KafkaConsumer<?, ?> consumer = idle().remove(partition);
        return consumer != null ? (KafkaConsumer<K, V>) consumer : new KafkaConsumer<>(kafkaParams);
    }

    /** Keeps {@code consumer} for the next task reading {@code partition}, unless another is kept already. */
    synchronized void giveBack(TopicPartition partition, KafkaConsumer<?, ?> consumer) {
        if (closed || idle().putIfAbsent(partition, consumer) != null) {
            consumer.close();
        }
    }

    synchronized void close() {
        closed = true;
        List<KafkaConsumer<?, ?>> consumers = new ArrayList<>(idle().values());
        idle.clear();
        consumers.forEach(KafkaConsumer::close);
    }

    private Map<TopicPartition, KafkaConsumer<?, ?>> idle() {
        if (idle == null) {
            idle = new HashMap<>();
        }
        return idle;
    }
}
