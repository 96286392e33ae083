package io.sluice.kafka;

import io.sluice.dstream.DStream;
import io.sluice.dstream.StreamingContext;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Kafka streams and RDDs, as Spark's {@code org.apache.spark.streaming.kafka010.KafkaUtils}. */
public final class KafkaUtils {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaUtils.class);
    private KafkaUtils() {
    }

    /**
     * A stream of the records of the strategy's partitions, each batch's RDD a {@link HasOffsetRanges}. Spark's
     * {@code createDirectStream(jssc, locationStrategy, consumerStrategy)}; declare the result as a
     * {@code DStream}. To commit offsets to Kafka, use {@link #createDirectSource} instead.
     */
    public static <K, V> DStream<ConsumerRecord<K, V>> createDirectStream(StreamingContext ctx,
            LocationStrategy locationStrategy, ConsumerStrategy<K, V> consumerStrategy) {
        return ctx.inputStream(createDirectSource(locationStrategy, consumerStrategy));
    }

    /**
     * As {@link #createDirectStream(StreamingContext, LocationStrategy, ConsumerStrategy)}, with rate limits per
     * partition.
     */
    public static <K, V> DStream<ConsumerRecord<K, V>> createDirectStream(StreamingContext ctx,
            LocationStrategy locationStrategy, ConsumerStrategy<K, V> consumerStrategy,
            PerPartitionConfig perPartitionConfig) {
        return ctx.inputStream(createDirectSource(locationStrategy, consumerStrategy, perPartitionConfig));
    }

    /**
     * The source of a direct stream, for {@code ctx.inputStream(source)}: keep it to call
     * {@link DirectKafkaSource#commitAsync} where Spark code writes
     * {@code ((CanCommitOffsets) stream.inputDStream()).commitAsync(...)}.
     */
    public static <K, V> DirectKafkaSource<K, V> createDirectSource(LocationStrategy locationStrategy,
            ConsumerStrategy<K, V> consumerStrategy) {
        return new DirectKafkaSource<>(locationStrategy, consumerStrategy, null);
    }

    /** As {@link #createDirectSource(LocationStrategy, ConsumerStrategy)}, with rate limits per partition. */
    public static <K, V> DirectKafkaSource<K, V> createDirectSource(LocationStrategy locationStrategy,
            ConsumerStrategy<K, V> consumerStrategy, PerPartitionConfig perPartitionConfig) {
        return new DirectKafkaSource<>(locationStrategy, consumerStrategy, java.util.Objects.requireNonNull(
                perPartitionConfig, "perPartitionConfig"));
    }

    /**
     * The records of the given offset ranges, one partition per range; the RDD ({@code rdd.rdd()}) is a
     * {@link HasOffsetRanges}. {@code PreferBrokers} needs the leaders, which a bounded read does not ask for.
     */
    public static <K, V> JavaRDD<ConsumerRecord<K, V>> createRDD(JavaSparkContext jsc, Map<String, Object> kafkaParams,
            OffsetRange[] offsetRanges, LocationStrategy locationStrategy) {
        if (locationStrategy.needsLeaders()) {
            throw new IllegalArgumentException("createRDD cannot use PreferBrokers: it does not look up the "
                    + "partitions' leaders; use PreferConsistent or PreferFixed");
        }
        String[] hosts = new String[offsetRanges.length];
        for (int i = 0; i < hosts.length; i++) {
            hosts[i] = locationStrategy.preferredHost(offsetRanges[i].topicPartition(), java.util.Optional.empty())
                    .orElse(null);
        }
        Map<String, Object> params = executorParams(ConsumerStrategy.checked(kafkaParams));
        return new KafkaRDD<K, V>(jsc.sc(), offsetRanges, hosts, params, null, BadRecords.fail("createRDD"))
                .toJavaRDD();
    }

    /**
     * The parameters executors read with, as Spark fixes them: no auto-commit, no offset reset (a range that is
     * gone fails the task), their own group ({@code spark-executor-} and the group, as Spark names it, so ACLs
     * written for Spark hold; {@code spark-executor-null} without a group, as Spark's concatenation makes it), a
     * receive buffer of at least 64 KiB. Logs what it overrides, as Spark does, but at INFO: every direct stream
     * overrides them by design, so a healthy job's log should not read it as a warning.
     */
    static Map<String, Object> executorParams(Map<String, Object> kafkaParams) {
        Map<String, Object> params = new HashMap<>(kafkaParams);
        params.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        params.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        Object group = params.get(ConsumerConfig.GROUP_ID_CONFIG);
        if (group == null) {
            LOG.error("{} is null, you should probably set it", ConsumerConfig.GROUP_ID_CONFIG);
        }
        params.put(ConsumerConfig.GROUP_ID_CONFIG, "spark-executor-" + group);
        LOG.info("overriding {} to false, {} to none and {} to {} for executors", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, ConsumerConfig.GROUP_ID_CONFIG,
                params.get(ConsumerConfig.GROUP_ID_CONFIG));
        Object buffer = params.get(ConsumerConfig.RECEIVE_BUFFER_CONFIG);
        if (buffer == null || Integer.parseInt(buffer.toString()) < 65536) {
            params.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, 65536);
        }
        return params;
    }
}
