package io.sluice.kafka;

import io.sluice.rdd.Deadline;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * The driver's consumer of a direct stream: it never hands records out, it tells which partitions the stream
 * reads (following the group's assignment or the assigned partitions), where new ones start, where each ends
 * now, and commits offsets for the user. Not thread-safe: its owner serializes calls.
 */
final class DriverConsumer<K, V> implements AutoCloseable {
    private final Consumer<K, V> consumer;
    private final Duration joinTimeout;

    /** {@code joinTimeout}: how long a partition the group took away may take to come back before a batch fails. */
    DriverConsumer(Consumer<K, V> consumer, Duration joinTimeout) {
        this.consumer = consumer;
        this.joinTimeout = joinTimeout;
    }

    /**
     * The latest offset of every partition the consumer has now; partitions not in {@code current} are added
     * to it at their starting offset (committed, else {@code auto.offset.reset}). A partition that is no longer
     * assigned fails the batch, as in Spark (another stream joined the group), unless the group gives it back
     * within the consumer's {@code default.api.timeout.ms}: after a driver restart, or while the group rebalances.
     */
    Map<TopicPartition, Long> latestOffsets(Map<TopicPartition, Long> current) {
        pollAndSeekBack(consumer, Duration.ZERO);
        try {
            return latestOffsetsOfAssigned(current);
        } catch (TimeoutException e) { // a partition whose topic was deleted has no position
            Set<String> deleted = deletedTopics(current.keySet());
            if (!deleted.isEmpty()) {
                throw deleted(deleted, current.keySet());
            }
            throw new IllegalStateException("Kafka did not answer within the consumer's default.api.timeout.ms: "
                    + e.getMessage(), e);
        }
    }

    private Map<TopicPartition, Long> latestOffsetsOfAssigned(Map<TopicPartition, Long> current) {
        Set<TopicPartition> revoked = unassigned(current.keySet());
        if (!revoked.isEmpty()) {
            Set<String> deleted = deletedTopics(revoked);
            if (!deleted.isEmpty()) {
                throw deleted(deleted, revoked);
            }
            Deadline deadline = Deadline.after(joinTimeout);
            while (!revoked.isEmpty() && !deadline.passed()) {
                pollAndSeekBack(consumer, Duration.ofMillis(100));
                revoked = unassigned(current.keySet());
            }
            if (!revoked.isEmpty()) {
                throw new IllegalStateException("partitions " + revoked + " were revoked from this stream by a group "
                        + "rebalance: another consumer joined its group; give each stream its own group.id");
            }
        }
        Set<TopicPartition> assigned = new HashSet<>(consumer.assignment());
        for (TopicPartition tp : assigned) {
            if (!current.containsKey(tp)) {
                current.put(tp, consumer.position(tp));
            }
        }
        consumer.pause(assigned);
        consumer.seekToEnd(assigned);
        Map<TopicPartition, Long> latest = new HashMap<>();
        for (TopicPartition tp : assigned) {
            latest.put(tp, consumer.position(tp));
        }
        return latest;
    }

    private Set<TopicPartition> unassigned(Set<TopicPartition> partitions) {
        Set<TopicPartition> unassigned = new HashSet<>(partitions);
        unassigned.removeAll(consumer.assignment());
        return unassigned;
    }

    private Set<String> deletedTopics(Set<TopicPartition> partitions) {
        Set<String> existing = consumer.listTopics().keySet();
        Set<String> deleted = new TreeSet<>();
        partitions.forEach(tp -> {
            if (!existing.contains(tp.topic())) {
                deleted.add(tp.topic());
            }
        });
        return deleted;
    }

    private static IllegalStateException deleted(Set<String> topics, Set<TopicPartition> partitions) {
        return new IllegalStateException("topic " + String.join(", ", topics) + " was deleted: the stream can no "
                + "longer read its partitions " + new TreeSet<>(partitions.stream().map(String::valueOf).toList()));
    }

    /** The host of each partition's leader, for {@code PreferBrokers}. */
    Map<TopicPartition, String> leaderHosts(Set<TopicPartition> partitions) {
        Map<TopicPartition, String> hosts = new HashMap<>();
        Set<String> topics = new HashSet<>();
        partitions.forEach(tp -> topics.add(tp.topic()));
        for (String topic : topics) {
            for (PartitionInfo info : consumer.partitionsFor(topic)) {
                Optional.ofNullable(info.leader()).filter(n -> !n.isEmpty()).map(Node::host)
                        .ifPresent(host -> hosts.put(new TopicPartition(topic, info.partition()), host));
            }
        }
        return hosts;
    }

    void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        consumer.commitAsync(offsets, callback);
    }

    @Override
    public void close() {
        consumer.close();
    }

    /**
     * Polls (to join the group, follow its rebalances and complete commits) without consuming: records returned
     * by the poll are given back by seeking each of their partitions to the first of them.
     */
    static <K, V> void pollAndSeekBack(Consumer<K, V> consumer, Duration timeout) {
        ConsumerRecords<K, V> records = consumer.poll(timeout);
        if (records.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> first = new HashMap<>();
        for (ConsumerRecord<K, V> r : records) {
            first.merge(new TopicPartition(r.topic(), r.partition()), r.offset(), Math::min);
        }
        first.forEach(consumer::seek);
    }
}
