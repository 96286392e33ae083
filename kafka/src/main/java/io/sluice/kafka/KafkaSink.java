package io.sluice.kafka;

import io.sluice.dstream.DStreamLike;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDDLike;
import org.apache.spark.api.java.function.PairFunction;

/**
 * Writes a stream's records to a Kafka topic exactly once per batch, which Spark Streaming's connector never
 * did: each partition of each batch's RDD is written in one Kafka transaction, whose transactional id is the
 * sink's {@code transactional.id} followed by {@code -<partition>}, and which also commits the batch's time as
 * the offset of a consumer group named after that transactional id. A batch run again (a retried task, or a
 * batch re-run after a driver restart) reads that mark first and writes nothing if its batch is already
 * committed; a new producer with the same id fences a zombie (a task of a dead driver or a lost executor)
 * and aborts its open transaction. A {@code read_committed} consumer therefore sees every record once.
 *
 * <p>The transactional ids must stay the same across restarts: keep {@code transactional.id} and the
 * stream's number of partitions. A batch's partitions commit one by one: a {@code read_committed} consumer
 * may see some of a batch's partitions before the others, never a record twice.
 */
public final class KafkaSink {
    private KafkaSink() {
    }

    /**
     * An output operation: writes every record of every batch of {@code stream} to {@code topic} as the
     * key and value {@code recordFn} gives it (partitioned as the producer's partitioner says), one transaction
     * per batch and partition.
     *
     * @param producerParams the producer's parameters, as for a {@code KafkaProducer}: {@code bootstrap.servers},
     *     the key and value serializers, and {@code transactional.id}, a name for this sink unique in the cluster
     *     and stable across restarts (the prefix of every partition's transactional id). Idempotence and
     *     {@code acks=all} are set, as transactions need.
     */
    public static <T, R extends JavaRDDLike<T, R>, K, V> void writeTransactionally(DStreamLike<T, R> stream,
            String topic, Map<String, Object> producerParams, PairFunction<T, K, V> recordFn) {
        java.util.Objects.requireNonNull(topic, "topic");
        java.util.Objects.requireNonNull(recordFn, "recordFn");
        Map<String, Object> params = checked(topic, producerParams);
        String prefix = params.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG).toString();
        stream.foreachRDD((rdd, time) -> rdd.foreachPartition(records -> {
            int partition = TaskContext.getPartitionId();
            new BatchTransaction<K, V>(topic, prefix + "-" + partition, params, time).write(records, recordFn);
        }));
    }

    /** The parameters every partition's producer gets; fails, saying what to set, when the sink cannot work. */
    static Map<String, Object> checked(String topic, Map<String, Object> producerParams) {
        Map<String, Object> params = new HashMap<>(producerParams);
        Object id = params.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        if (id == null || id.toString().isBlank()) {
            throw new IllegalArgumentException("KafkaSink to " + topic + ": set " + ProducerConfig.TRANSACTIONAL_ID_CONFIG
                    + " in producerParams, a name for this sink unique in the cluster and the same after a restart"
                    + " (partition p of each batch writes as <transactional.id>-p)");
        }
        for (String needed : new String[] {ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG}) {
            if (!params.containsKey(needed)) {
                throw new IllegalArgumentException("KafkaSink " + id + " to " + topic + ": producerParams has no "
                        + needed);
            }
        }
        Object idempotence = params.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
        if (idempotence != null && !Boolean.parseBoolean(idempotence.toString())) {
            throw new IllegalArgumentException("KafkaSink " + id + " to " + topic + ": transactions need "
                    + ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG + "=true; remove the setting");
        }
        params.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        params.put(ProducerConfig.ACKS_CONFIG, "all");
        return params;
    }
}
