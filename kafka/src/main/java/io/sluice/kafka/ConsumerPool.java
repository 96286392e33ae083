package io.sluice.kafka;

import io.sluice.dstream.source.SourceContext;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumers an executor keeps between batches, one idle consumer per topic partition (Spark's cached
 * {@code KafkaDataConsumer}): a task takes the idle one or opens its own, and gives it back when it has read
 * its whole range. A stream ships its pool to executors as a broadcast variable, so each executor JVM holds one
 * instance (the broadcast's value) without any static; the driver closes it (in local mode, the executors' one
 * too) when the stream stops, and executors' consumers close with their JVM.
 *
 * <p>Spark's {@code spark.streaming.kafka.consumer.cache.*} settings apply: {@code enabled} (true; false: every
 * task opens and closes its own consumer), {@code maxCapacity} (64 kept consumers; beyond it the least recently
 * used one is closed, with Spark's warning), {@code initialCapacity} (16) and {@code loadFactor} (0.75) of the
 * map. Spark's cache is shared by the streams of an executor; this one belongs to one stream.
 */
final class ConsumerPool implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerPool.class);
    static final String PREFIX = "spark.streaming.kafka.consumer.cache.";

    private final Map<String, Object> kafkaParams;
    private final int maxCapacity;
    private final int initialCapacity;
    private final float loadFactor;
    private transient LinkedHashMap<TopicPartition, KafkaConsumer<?, ?>> idle;
    private transient boolean closed;

    ConsumerPool(Map<String, Object> executorKafkaParams, int maxCapacity, int initialCapacity, float loadFactor) {
        if (maxCapacity < 1 || initialCapacity < 0 || loadFactor <= 0) {
            throw new IllegalArgumentException(PREFIX + "maxCapacity must be positive, initialCapacity not negative "
                    + "and loadFactor positive; got " + maxCapacity + ", " + initialCapacity + ", " + loadFactor);
        }
        this.kafkaParams = new HashMap<>(executorKafkaParams);
        this.maxCapacity = maxCapacity;
        this.initialCapacity = initialCapacity;
        this.loadFactor = loadFactor;
    }

    /** The stream's pool as the context's settings make it, or null when the cache is disabled. */
    static ConsumerPool fromSettings(SourceContext context, Map<String, Object> executorKafkaParams) {
        String enabled = context.setting(PREFIX + "enabled").orElse("true").trim();
        if (!enabled.equalsIgnoreCase("true") && !enabled.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(PREFIX + "enabled must be true or false, was " + enabled);
        }
        if (enabled.equalsIgnoreCase("false")) {
            return null;
        }
        try {
            return new ConsumerPool(executorKafkaParams,
                    Integer.parseInt(context.setting(PREFIX + "maxCapacity").orElse("64").trim()),
                    Integer.parseInt(context.setting(PREFIX + "initialCapacity").orElse("16").trim()),
                    Float.parseFloat(context.setting(PREFIX + "loadFactor").orElse("0.75").trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PREFIX + "maxCapacity, initialCapacity and loadFactor must be numbers: "
                    + e.getMessage(), e);
        }
    }

    Map<String, Object> kafkaParams() {
        return kafkaParams;
    }

    @SuppressWarnings("unchecked")
    synchronized <K, V> KafkaConsumer<K, V> take(TopicPartition partition) {
        KafkaConsumer<?, ?> consumer = idle().remove(partition);
        return consumer != null ? (KafkaConsumer<K, V>) consumer : new KafkaConsumer<>(kafkaParams);
    }

    /**
     * Keeps {@code consumer} for the next task reading {@code partition}, unless another is kept already; at
     * capacity, closes the least recently used one.
     */
    synchronized void giveBack(TopicPartition partition, KafkaConsumer<?, ?> consumer) {
        if (closed || idle().putIfAbsent(partition, consumer) != null) {
            consumer.close();
            return;
        }
        if (idle.size() > maxCapacity) {
            Iterator<Map.Entry<TopicPartition, KafkaConsumer<?, ?>>> eldest = idle.entrySet().iterator();
            Map.Entry<TopicPartition, KafkaConsumer<?, ?>> evicted = eldest.next();
            eldest.remove();
            LOG.warn("KafkaConsumer cache hitting max capacity of {}, removing consumer for {}", maxCapacity,
                    evicted.getKey());
            evicted.getValue().close();
        }
    }

    synchronized int idleCount() {
        return idle().size();
    }

    synchronized void close() {
        closed = true;
        List<KafkaConsumer<?, ?>> consumers = new ArrayList<>(idle().values());
        idle.clear();
        consumers.forEach(KafkaConsumer::close);
    }

    private LinkedHashMap<TopicPartition, KafkaConsumer<?, ?>> idle() {
        if (idle == null) {
            idle = new LinkedHashMap<>(initialCapacity, loadFactor, true);
        }
        return idle;
    }
}
