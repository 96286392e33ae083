package io.sluice.kafka;

import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.KnownCount;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.spark.Partition;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.RDD;
import org.apache.spark.util.TaskCompletionListener;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The records of some offset ranges, one partition per range (in order, so that {@link #offsetRanges()}{@code [i]}
 * is partition i's range, as in Spark). What every batch of a direct stream and {@link KafkaUtils#createRDD} are.
 *
 * <p>When every range is empty (an idle topic's batch), {@code count()}, {@code isEmpty()} and {@code take(n)}
 * answer without a Spark job, as Spark's {@code KafkaRDD} does, and so does {@code DStream.count()}. Otherwise they
 * run one: a range's offsets are not its record count when the topic is compacted or transactional (the reader
 * passes over the gaps), so unlike Spark's, a non-empty range is never counted from its offsets.
 */
final class KafkaRDD<K, V> extends RDD<ConsumerRecord<K, V>> implements HasOffsetRanges, KnownCount {
    private static final long serialVersionUID = 1L;

    private final OffsetRange[] ranges;
    private final String[] preferredHosts;
    private final Map<String, Object> kafkaParams;
    private final Broadcast<ConsumerPool> pool;
    private final long pollTimeoutMs;
    private final BadRecords badRecords;
    /** The executors when the scheduler first asked for a location (on the driver). */
    private transient List<ExecutorLocation> executors;

    /**
     * @param preferredHosts the host for each range's task, or null entries where Spark may choose
     * @param pool executors' cached consumers (null: each task opens and closes its own consumer)
     */
    KafkaRDD(SparkContext sc, OffsetRange[] ranges, String[] preferredHosts, Map<String, Object> kafkaParams,
            Broadcast<ConsumerPool> pool, BadRecords badRecords) {
        super(sc, scala.collection.immutable.List$.MODULE$.<org.apache.spark.Dependency<?>>empty(), recordTag());
        this.ranges = ranges.clone();
        this.preferredHosts = preferredHosts.clone();
        this.kafkaParams = new HashMap<>(kafkaParams);
        this.pool = pool;
        this.badRecords = badRecords;
        this.pollTimeoutMs = sc.getConf().getLong("spark.streaming.kafka.consumer.poll.ms",
                sc.getConf().getTimeAsSeconds("spark.network.timeout", "120s") * 1000);
    }

    @SuppressWarnings("unchecked")
    private static <K, V> ClassTag<ConsumerRecord<K, V>> recordTag() {
        return (ClassTag<ConsumerRecord<K, V>>) (ClassTag<?>) ClassTag$.MODULE$.apply(ConsumerRecord.class);
    }

    @Override
    public OffsetRange[] offsetRanges() {
        return ranges.clone();
    }

    /** 0 when every range is empty; otherwise unknown without reading (see the class comment). */
    @Override
    public OptionalLong knownCount() {
        return idle() ? OptionalLong.of(0) : OptionalLong.empty();
    }

    @Override
    public long count() {
        return idle() ? 0 : super.count();
    }

    @Override
    public boolean isEmpty() {
        return idle() || super.isEmpty();
    }

    @Override
    public Object take(int num) {
        return num < 1 || idle() ? new ConsumerRecord<?, ?>[0] : super.take(num);
    }

    /** Whether every range is empty: the batch of a topic nothing was written to. */
    private boolean idle() {
        for (OffsetRange range : ranges) {
            if (range.count() > 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Partition[] getPartitions() {
        Partition[] partitions = new Partition[ranges.length];
        for (int i = 0; i < ranges.length; i++) {
            partitions[i] = new RangePartition(i);
        }
        return partitions;
    }

    /**
     * As Spark's {@code KafkaRDD}: the same executor for a partition batch after batch (its cached consumer),
     * chosen by the partition's hash among the executors (sorted as Spark sorts them) on the preferred host if
     * any runs there, else among all; with no executor known (local mode), the preferred host, if any.
     */
    @Override
    public scala.collection.immutable.Seq<String> getPreferredLocations(Partition split) {
        String host = preferredHosts[split.index()];
        List<ExecutorLocation> all = executors();
        List<ExecutorLocation> onHost = host == null ? all : all.stream().filter(e -> e.host().equals(host)).toList();
        List<ExecutorLocation> candidates = onHost.isEmpty() ? all : onHost;
        List<String> chosen;
        if (candidates.isEmpty()) {
            chosen = host == null ? List.of() : List.of(host);
        } else {
            int index = Math.floorMod(ranges[split.index()].topicPartition().hashCode(), candidates.size());
            chosen = List.of(candidates.get(index).toString());
        }
        return CollectionConverters.asScala(chosen).toList();
    }

    private synchronized List<ExecutorLocation> executors() {
        if (executors == null) {
            executors = ExecutorLocation.executors(sparkContext());
        }
        return executors;
    }

    @Override
    public scala.collection.Iterator<ConsumerRecord<K, V>> compute(Partition split, TaskContext context) {
        OffsetRange range = ranges[split.index()];
        if (range.count() == 0) {
            return CollectionConverters.asScala(Collections.<ConsumerRecord<K, V>>emptyIterator());
        }
        TopicPartition tp = range.topicPartition();
        ConsumerPool consumers = pool == null ? null : pool.value();
        KafkaConsumer<K, V> consumer = consumers == null ? new KafkaConsumer<>(kafkaParams) : consumers.take(tp);
        AtomicBoolean released = new AtomicBoolean();
        Iterator<ConsumerRecord<K, V>> reader;
        try {
            reader = new RangeReader<>(consumer, range, Duration.ofMillis(pollTimeoutMs), badRecords, whole -> {
                if (released.compareAndSet(false, true)) {
                    if (consumers != null) {
                        consumers.giveBack(tp, consumer);
                    } else {
                        consumer.close();
                    }
                }
            });
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
        // A task that stops early (take, a failure) closes its consumer: its position is not the range's end.
        context.addTaskCompletionListener(new TaskCompletionListener() {
            @Override
            public void onTaskCompletion(TaskContext ignored) {
                if (released.compareAndSet(false, true)) {
                    consumer.close();
                }
            }
        });
        return CollectionConverters.asScala(reader);
    }

    private record RangePartition(int index) implements Partition {
    }
}
