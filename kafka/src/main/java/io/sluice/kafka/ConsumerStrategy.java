package io.sluice.kafka;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;

/**
 * How the driver's consumer finds its partitions and where a fresh stream starts; make one with
 * {@link ConsumerStrategies}. Spark's {@code ConsumerStrategy}: subclass it for a consumer set up your own way.
 */
public abstract class ConsumerStrategy<K, V> {
    /** The Kafka parameters as the user gave them; executors read with a copy fixed by {@link KafkaUtils}. */
    public abstract Map<String, Object> executorKafkaParams();

    /**
     * The driver's consumer, subscribed or assigned, positioned at {@code currentOffsets} (the offsets a
     * restarted stream continues from; empty on a fresh start, then at the strategy's starting offsets).
     */
    public abstract Consumer<K, V> onStart(Map<TopicPartition, Long> currentOffsets);

    /** The given parameters, checked: the driver and executors need at least the brokers. */
    static Map<String, Object> checked(Map<String, Object> kafkaParams) {
        Map<String, Object> copy = new HashMap<>(kafkaParams);
        if (!copy.containsKey(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
            throw new IllegalArgumentException("the Kafka parameters lack " + ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
        }
        return Collections.unmodifiableMap(copy);
    }

    /** The consumer's {@code default.api.timeout.ms}: how long the driver waits for the group or a broker. */
    static java.time.Duration apiTimeout(Map<String, Object> kafkaParams) {
        Object value = kafkaParams.get(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
        return java.time.Duration.ofMillis(value == null ? 60_000 : Long.parseLong(value.toString().trim()));
    }

    /** Whether {@code auto.offset.reset} is {@code none}: a stream then must be given every starting offset. */
    static boolean resetIsNone(Map<String, Object> kafkaParams) {
        Object reset = kafkaParams.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG);
        return reset != null && reset.toString().equalsIgnoreCase("none");
    }
}
