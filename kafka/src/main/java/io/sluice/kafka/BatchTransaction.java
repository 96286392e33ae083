package io.sluice.kafka;

import io.sluice.rdd.Time;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.spark.api.java.function.PairFunction;
import scala.Tuple2;

/**
 * One partition of one batch written by a {@link KafkaSink}, in a task: a producer with the partition's
 * transactional id fences any earlier one (and so finishes or aborts its transaction), then the batch's mark is
 * read back, and only if it is older than this batch are the records written, in one transaction with the new
 * mark. The mark is the offset of the consumer group named like the transactional id on the sink topic's
 * partition 0 (offset = the batch time in milliseconds), committed by {@code sendOffsetsToTransaction}, so it
 * becomes visible exactly when the records do.
 */
final class BatchTransaction<K, V> {
    private final String topic;
    private final String transactionalId;
    private final Map<String, Object> producerParams;
    private final Time time;
    private final TopicPartition markPartition;

    BatchTransaction(String topic, String transactionalId, Map<String, Object> sinkParams, Time time) {
        this.topic = topic;
        this.transactionalId = transactionalId;
        this.producerParams = new HashMap<>(sinkParams);
        this.producerParams.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        this.time = time;
        this.markPartition = new TopicPartition(topic, 0);
    }

    /** Writes {@code records}, mapped by {@code recordFn}, unless this batch is already committed; true if written. */
    <T> boolean write(Iterator<T> records, PairFunction<T, K, V> recordFn) {
        if (!records.hasNext()) {
            return false; // nothing that could be written twice
        }
        try (KafkaProducer<K, V> producer = new KafkaProducer<>(producerParams)) {
            producer.initTransactions();
            if (lastCommittedBatch() >= time.milliseconds()) {
                return false;
            }
            producer.beginTransaction();
            try {
                while (records.hasNext()) {
                    Tuple2<K, V> kv = recordFn.call(records.next());
                    producer.send(new ProducerRecord<>(topic, kv._1(), kv._2()));
                }
                producer.sendOffsetsToTransaction(
                        Map.of(markPartition, new OffsetAndMetadata(time.milliseconds(), "sluice batch " + time)),
                        new ConsumerGroupMetadata(transactionalId));
                producer.commitTransaction(); // fails if any send failed
                return true;
            } catch (ProducerFencedException e) {
                throw e; // a newer attempt owns the id; it aborts what this one wrote
            } catch (Exception e) {
                producer.abortTransaction();
                throw e;
            }
        } catch (ProducerFencedException e) {
            throw new IllegalStateException(this + ": fenced by a newer writer of the same partition and batch "
                    + "(a retried task or a restarted driver), which writes the batch instead", e);
        } catch (Exception e) {
            throw new IllegalStateException(this + ": " + e, e);
        }
    }

    /** The batch time (ms) last committed by this partition's transactions, -1 if none. */
    long lastCommittedBatch() throws ExecutionException, InterruptedException {
        Map<String, Object> adminParams = new HashMap<>();
        producerParams.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                adminParams.put(k, v);
            }
        });
        try (Admin admin = Admin.create(adminParams)) {
            // requireStable: a mark still inside an unfinished transaction is waited for, not skipped
            OffsetAndMetadata mark = admin.listConsumerGroupOffsets(transactionalId,
                    new ListConsumerGroupOffsetsOptions().requireStable(true))
                    .partitionsToOffsetAndMetadata().get().get(markPartition);
            return mark == null ? -1 : mark.offset();
        }
    }

    @Override
    public String toString() {
        return "KafkaSink " + transactionalId + " to " + topic + ", batch " + time;
    }
}
