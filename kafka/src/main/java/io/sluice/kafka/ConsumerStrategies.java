package io.sluice.kafka;

import io.sluice.rdd.Deadline;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The {@link ConsumerStrategy}s, as Spark's {@code ConsumerStrategies}: {@code Subscribe} to topics,
 * {@code SubscribePattern}, or {@code Assign} partitions, each with the Kafka parameters and optionally the
 * offsets a fresh stream starts from (else the group's committed offsets, else {@code auto.offset.reset}).
 */
public final class ConsumerStrategies {
    private ConsumerStrategies() {
    }

    public static <K, V> ConsumerStrategy<K, V> Subscribe(Collection<String> topics,
            Map<String, Object> kafkaParams) {
        return Subscribe(topics, kafkaParams, Map.of());
    }

    public static <K, V> ConsumerStrategy<K, V> Subscribe(Collection<String> topics,
            Map<String, Object> kafkaParams, Map<TopicPartition, Long> offsets) {
        List<String> copy = List.copyOf(topics);
        return new Subscribing<>(kafkaParams, offsets, consumer -> consumer.subscribe(copy));
    }

    public static <K, V> ConsumerStrategy<K, V> SubscribePattern(Pattern pattern, Map<String, Object> kafkaParams) {
        return SubscribePattern(pattern, kafkaParams, Map.of());
    }

    public static <K, V> ConsumerStrategy<K, V> SubscribePattern(Pattern pattern, Map<String, Object> kafkaParams,
            Map<TopicPartition, Long> offsets) {
        return new Subscribing<>(kafkaParams, offsets, consumer -> consumer.subscribe(pattern));
    }

    public static <K, V> ConsumerStrategy<K, V> Assign(Collection<TopicPartition> topicPartitions,
            Map<String, Object> kafkaParams) {
        return Assign(topicPartitions, kafkaParams, Map.of());
    }

    public static <K, V> ConsumerStrategy<K, V> Assign(Collection<TopicPartition> topicPartitions,
            Map<String, Object> kafkaParams, Map<TopicPartition, Long> offsets) {
        return new Assigning<>(List.copyOf(topicPartitions), kafkaParams, offsets);
    }

    /**
     * The driver's consumer reads no key or value (it only follows partitions and offsets), so it reads bytes:
     * a record that fails to deserialize then fails only the task reading it, under {@code sluice.input.badRecords}.
     */
    @SuppressWarnings("unchecked")
    private static <K, V> KafkaConsumer<K, V> driverConsumer(Map<String, Object> kafkaParams) {
        return (KafkaConsumer<K, V>) (KafkaConsumer<?, ?>) new KafkaConsumer<>(kafkaParams,
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private abstract static class Base<K, V> extends ConsumerStrategy<K, V> {
        final Map<String, Object> kafkaParams;
        final Map<TopicPartition, Long> offsets;

        Base(Map<String, Object> kafkaParams, Map<TopicPartition, Long> offsets) {
            this.kafkaParams = checked(kafkaParams);
            this.offsets = Map.copyOf(offsets);
        }

        @Override
        public Map<String, Object> executorKafkaParams() {
            return kafkaParams;
        }

        /** Where to seek: the restored offsets on a restart, else the starting offsets given. */
        Map<TopicPartition, Long> toSeek(Map<TopicPartition, Long> currentOffsets) {
            return currentOffsets.isEmpty() ? offsets : currentOffsets;
        }
    }

    private static final class Subscribing<K, V> extends Base<K, V> {
        private final java.util.function.Consumer<Consumer<K, V>> subscription;

        Subscribing(Map<String, Object> kafkaParams, Map<TopicPartition, Long> offsets,
                java.util.function.Consumer<Consumer<K, V>> subscription) {
            super(kafkaParams, offsets);
            this.subscription = subscription;
        }

        @Override
        public Consumer<K, V> onStart(Map<TopicPartition, Long> currentOffsets) {
            KafkaConsumer<K, V> consumer = driverConsumer(kafkaParams);
            try {
                subscription.accept(consumer);
                awaitAssignment(consumer);
                // Kafka rejects a seek to a partition not assigned (yet); the others start at their reset offset.
                toSeek(currentOffsets).forEach((tp, offset) -> {
                    if (consumer.assignment().contains(tp)) {
                        consumer.seek(tp, offset);
                    }
                });
                consumer.pause(consumer.assignment());
                return consumer;
            } catch (RuntimeException e) {
                consumer.close(Duration.ZERO);
                throw e;
            }
        }

        /**
         * Joins the group (records polled meanwhile are given back by seeking to them), for at most the consumer's
         * {@code default.api.timeout.ms}; then, with no partition, fails if no broker answers.
         */
        private void awaitAssignment(KafkaConsumer<K, V> consumer) {
            Duration timeout = apiTimeout(kafkaParams);
            Deadline deadline = Deadline.after(timeout);
            while (consumer.assignment().isEmpty() && !deadline.passed()) {
                try {
                    DriverConsumer.pollAndSeekBack(consumer, Duration.ofMillis(100));
                } catch (NoOffsetForPartitionException e) {
                    if (!resetIsNone(kafkaParams)) {
                        throw e;
                    }
                    return; // auto.offset.reset=none: the offsets given are sought below
                }
            }
            if (consumer.assignment().isEmpty()) {
                try {
                    consumer.listTopics(timeout); // no partition yet (a topic still to be created) or no broker?
                } catch (org.apache.kafka.common.errors.TimeoutException e) {
                    throw new IllegalStateException("no Kafka broker answered within " + timeout.toMillis() + " ms ("
                            + "default.api.timeout.ms) at " + kafkaParams.get(
                            org.apache.kafka.clients.consumer.ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG), e);
                }
            }
        }
    }

    private static final class Assigning<K, V> extends Base<K, V> {
        private final List<TopicPartition> partitions;

        Assigning(List<TopicPartition> partitions, Map<String, Object> kafkaParams,
                Map<TopicPartition, Long> offsets) {
            super(kafkaParams, offsets);
            this.partitions = partitions;
        }

        @Override
        public Consumer<K, V> onStart(Map<TopicPartition, Long> currentOffsets) {
            KafkaConsumer<K, V> consumer = driverConsumer(kafkaParams);
            consumer.assign(partitions);
            toSeek(currentOffsets).forEach(consumer::seek);
            return consumer;
        }
    }
}
