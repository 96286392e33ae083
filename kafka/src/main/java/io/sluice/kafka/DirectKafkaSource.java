package io.sluice.kafka;

import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.SourceContext;
import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.Time;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka direct stream's source (Spark's {@code DirectKafkaInputDStream}): at each batch the driver decides
 * one offset range per partition, from where the previous batch ended to the partition's latest offset (bounded
 * by the rate limit), and the batch's RDD, a {@link HasOffsetRanges}, reads them in its tasks. The ranges go
 * into the checkpoint, so a restarted driver runs its pending batches over exactly the same records.
 *
 * <p>Made by {@link KafkaUtils#createDirectStream} or, to commit offsets to Kafka, by
 * {@link KafkaUtils#createDirectSource} and {@code ctx.inputStream(source)}; then {@code source.commitAsync(...)}
 * does what Spark's {@code ((CanCommitOffsets) stream.inputDStream()).commitAsync(...)} does.
 */
public final class DirectKafkaSource<K, V> implements InputSource<ConsumerRecord<K, V>>, CanCommitOffsets {
    private static final Logger LOG = LoggerFactory.getLogger(DirectKafkaSource.class);
    private final LocationStrategy locations;
    private final ConsumerStrategy<K, V> strategy;
    private final PerPartitionConfig perPartitionConfig;
    private final BatchTimeMap<OffsetRange[]> batches = new BatchTimeMap<>();
    private final BatchTimeMap<BadRecords> badRecords = new BatchTimeMap<>();
    private final ConcurrentLinkedQueue<Commit> commits = new ConcurrentLinkedQueue<>();
    private final Object consumerLock = new Object();
    /** The offset each partition's next batch starts at. Guarded by {@link #consumerLock}. */
    private final Map<TopicPartition, Long> current = new HashMap<>();
    // Set by start(): the SPI hands the context over then. Read by the scheduler's and the stopping thread.
    private volatile SourceContext context;
    private volatile RateLimit rateLimit;
    private volatile boolean skipBadRecords;
    private volatile DriverConsumer<K, V> consumer;
    private volatile Map<String, Object> executorParams;
    /** Executors' cached consumers; null when {@code spark.streaming.kafka.consumer.cache.enabled} is false. */
    private volatile Broadcast<ConsumerPool> pool;

    private record Commit(OffsetRange[] ranges, OffsetCommitCallback callback) {
    }

    /** {@code perPartitionConfig}: null for the context's {@code spark.streaming.kafka.*RatePerPartition}. */
    DirectKafkaSource(LocationStrategy locations, ConsumerStrategy<K, V> strategy,
            PerPartitionConfig perPartitionConfig) {
        this.locations = locations;
        this.strategy = strategy;
        this.perPartitionConfig = perPartitionConfig;
    }

    @Override
    public void start(SourceContext sourceContext) {
        this.context = sourceContext;
        Object autoCommit = strategy.executorKafkaParams().get(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG);
        if (autoCommit == null || Boolean.parseBoolean(autoCommit.toString().trim())) {
            LOG.warn("{}: the driver's consumer commits offsets by itself (enable.auto.commit is {}): the group's "
                    + "committed offsets then run ahead of the batches processed. Set enable.auto.commit to false and "
                    + "commit with commitAsync after your output, as Spark's guide says", sourceContext.name(),
                    autoCommit == null ? "not set, and Kafka's default is true" : "true");
        }
        this.rateLimit = new RateLimit(perPartitionConfig != null ? perPartitionConfig
                : RateLimit.fromSettings(sourceContext), sourceContext.grid().step());
        this.skipBadRecords = BadRecords.skips(sourceContext.setting(BadRecords.SETTING).orElse("replace"));
        NavigableMap<Time, String> restored = sourceContext.restoredPositions();
        restored.forEach((time, text) -> batches.put(time, RangesText.decode(text)));
        synchronized (consumerLock) {
            if (!restored.isEmpty()) {
                for (OffsetRange r : batches.newest().orElseThrow().getValue()) {
                    current.put(r.topicPartition(), r.untilOffset());
                }
            }
            try {
                consumer = new DriverConsumer<>(strategy.onStart(Map.copyOf(current)),
                        ConsumerStrategy.apiTimeout(strategy.executorKafkaParams()));
            } catch (RuntimeException e) {
                throw new IllegalStateException(sourceContext.name() + ": the driver's Kafka consumer failed to "
                        + "start: " + e, e);
            }
        }
        executorParams = KafkaUtils.executorParams(strategy.executorKafkaParams());
        ConsumerPool consumers = ConsumerPool.fromSettings(sourceContext, executorParams);
        pool = consumers == null ? null : sourceContext.sparkContext().broadcast(consumers);
    }

    @Override
    public Optional<JavaRDD<ConsumerRecord<K, V>>> compute(Time time) {
        OffsetRange[] ranges = batches.get(time).orElse(null);
        try {
            synchronized (consumerLock) {
                commitQueued();
                if (ranges == null) {
                    ranges = nextRanges();
                    batches.put(time, ranges);
                }
                String[] hosts = preferredHosts(ranges);
                BadRecords bad = BadRecords.forBatch(skipBadRecords, context.name() + ", batch " + time,
                        context.sparkContext().sc());
                badRecords.put(time, bad);
                KafkaRDD<K, V> rdd = new KafkaRDD<>(context.sparkContext().sc(), ranges, hosts,
                        executorParams, pool, bad);
                return Optional.of(rdd.toJavaRDD());
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException(context.name() + ", batch " + time + ": " + e.getMessage(), e);
        }
    }

    /**
     * From where the last batch ended to the latest offsets, within the rate limit (and the backpressure rate,
     * with {@code spark.streaming.backpressure.enabled}); sorted by topic, partition.
     */
    private OffsetRange[] nextRanges() {
        Map<TopicPartition, Long> latest = consumer.latestOffsets(current);
        Map<TopicPartition, Long> until = rateLimit.until(current, latest, context.rateLimit());
        List<TopicPartition> partitions = latest.keySet().stream()
                .sorted(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
                .toList();
        OffsetRange[] ranges = new OffsetRange[partitions.size()];
        for (int i = 0; i < ranges.length; i++) {
            TopicPartition tp = partitions.get(i);
            ranges[i] = OffsetRange.create(tp, current.get(tp), until.get(tp));
            current.put(tp, until.get(tp));
        }
        return ranges;
    }

    private String[] preferredHosts(OffsetRange[] ranges) {
        Map<TopicPartition, String> leaders = Map.of();
        if (locations.needsLeaders()) {
            leaders = consumer.leaderHosts(Arrays.stream(ranges).map(OffsetRange::topicPartition)
                    .collect(java.util.stream.Collectors.toSet()));
        }
        String[] hosts = new String[ranges.length];
        for (int i = 0; i < ranges.length; i++) {
            TopicPartition tp = ranges[i].topicPartition();
            hosts[i] = locations.preferredHost(tp, Optional.ofNullable(leaders.get(tp))).orElse(null);
        }
        return hosts;
    }

    @Override
    public BatchReport report(Time time) {
        OffsetRange[] ranges = batches.get(time).orElse(null);
        if (ranges == null) {
            return BatchReport.NONE;
        }
        long skipped = badRecords.get(time).map(BadRecords::skippedCount).orElse(0L);
        long offsets = Arrays.stream(ranges).mapToLong(OffsetRange::count).sum();
        return new BatchReport(Math.max(0, offsets - skipped), skipped);
    }

    @Override
    public boolean replayable() {
        return true;
    }

    @Override
    public Optional<String> positionAfter(Time time) {
        return batches.get(time).map(RangesText::encode);
    }

    @Override
    public void forgetOlderThan(Time oldestKept) {
        batches.forgetBefore(oldestKept);
        badRecords.forgetBefore(oldestKept);
    }

    @Override
    public void commitAsync(OffsetRange[] offsetRanges) {
        commitAsync(offsetRanges, null);
    }

    @Override
    public void commitAsync(OffsetRange[] offsetRanges, OffsetCommitCallback callback) {
        commits.add(new Commit(offsetRanges.clone(), callback));
    }

    /** Commits what the user queued since the last batch, each call with its callback; on the consumer's thread. */
    private void commitQueued() {
        Commit commit;
        while ((commit = commits.poll()) != null) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (OffsetRange r : commit.ranges()) {
                offsets.merge(r.topicPartition(), new OffsetAndMetadata(r.untilOffset()),
                        (a, b) -> a.offset() >= b.offset() ? a : b);
            }
            consumer.commitAsync(offsets, commit.callback());
        }
    }

    @Override
    public void stop(boolean gracefully) {
        synchronized (consumerLock) {
            if (consumer != null) {
                try {
                    commitQueued();
                } finally {
                    consumer.close();
                    consumer = null;
                }
            }
        }
        if (pool != null) {
            pool.value().close();
            pool.destroy();
            pool = null;
        }
    }
}
