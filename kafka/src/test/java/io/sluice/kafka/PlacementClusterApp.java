package io.sluice.kafka;

import io.sluice.dstream.testing.LocalCluster;
import io.sluice.dstream.DStream;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.recovery.ClusterWordCountApp;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.spark.Partition;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.BlockManagerId;
import scala.Tuple2;

/**
 * The driver of {@link PlacementClusterTest}, in its own JVM: a direct stream over every partition of a topic,
 * {@code PreferConsistent}, on a {@code local-cluster} of two executor JVMs, for a few batches on a manual clock.
 * For each batch and Kafka partition it prints where Sluice prefers to read it, where Spark Streaming's
 * {@code KafkaRDD} would prefer to read the same offset range on the same cluster, where the task ran and how many
 * records it read: "placed &lt;batch&gt; &lt;topic-partition&gt; preferred=... spark=... ran=... records=...".
 * A long locality wait makes the scheduler keep a task for its preferred executor.
 *
 * <p>Arguments: bootstrap servers, topic, partitions, batches, records per partition and batch.
 */
public final class PlacementClusterApp {
    static final Duration INTERVAL = Duration.ofSeconds(1);

    private PlacementClusterApp() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        int partitions = Integer.parseInt(args[2]);
        int batches = Integer.parseInt(args[3]);
        int perBatch = Integer.parseInt(args[4]);
        Map<String, Object> params = new HashMap<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "placement",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false));
        ManualClock clock = new ManualClock();
        StreamingContext c = LocalCluster.builder("local-cluster[2,1,1024]", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
                .appName("kafka-placement")
                .batchInterval(INTERVAL)
                .clock(clock)
                .conf("spark.locality.wait", "120s")
                .conf("spark.streaming.kafka.maxRatePerPartition", String.valueOf(perBatch))
                .build();
        c.sparkContext().setLogLevel("WARN");
        List<TopicPartition> assigned = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            assigned.add(new TopicPartition(topic, p));
        }
        DStream<ConsumerRecord<String, String>> records = KafkaUtils.createDirectStream(c,
                LocationStrategies.PreferConsistent(), ConsumerStrategies.<String, String>Assign(assigned, params));
        records.foreachRDD((rdd, time) -> {
            OffsetRange[] ranges = ((HasOffsetRanges) rdd.rdd()).offsetRanges();
            RDD<?> spark = sparkKafkaRdd(JavaSparkContext.fromSparkContext(rdd.context()), params, ranges);
            Map<Integer, Tuple2<String, Integer>> ran = new HashMap<>();
            rdd.mapPartitionsWithIndex((index, it) -> {
                int n = 0;
                for (; it.hasNext(); it.next()) {
                    n++;
                }
                BlockManagerId self = SparkEnv.get().blockManager().blockManagerId();
                String executor = "executor_" + self.host() + "_" + self.executorId();
                return List.of(new Tuple2<>(index, new Tuple2<>(executor, n))).iterator();
            }, true).collect().forEach(t -> ran.put(t._1(), t._2()));
            for (Partition p : rdd.rdd().partitions()) {
                System.out.println("placed " + time.milliseconds() + " " + ranges[p.index()].topicPartition()
                        + " preferred=" + first(rdd.rdd().preferredLocations(p))
                        + " spark=" + first(spark.preferredLocations(spark.partitions()[p.index()]))
                        + " ran=" + ran.get(p.index())._1() + " records=" + ran.get(p.index())._2());
            }
        });
        Semaphore completed = new Semaphore(0);
        c.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                completed.release();
            }
        });
        ClusterWordCountApp.awaitExecutors(c, 2);
        c.start();
        for (int b = 1; b <= batches; b++) {
            clock.advance(INTERVAL);
            if (!completed.tryAcquire(120, TimeUnit.SECONDS)) {
                throw new AssertionError("batch " + b + " did not complete within 120 s");
            }
        }
        c.stop(true, false);
        System.out.println("done");
    }

    /** Spark Streaming's own KafkaRDD over the same offset ranges, as its direct stream would make it. */
    private static RDD<?> sparkKafkaRdd(JavaSparkContext jsc, Map<String, Object> params, OffsetRange[] ranges) {
        org.apache.spark.streaming.kafka010.OffsetRange[] theirs =
                new org.apache.spark.streaming.kafka010.OffsetRange[ranges.length];
        for (int i = 0; i < ranges.length; i++) {
            theirs[i] = org.apache.spark.streaming.kafka010.OffsetRange.create(ranges[i].topic(),
                    ranges[i].partition(), ranges[i].fromOffset(), ranges[i].untilOffset());
        }
        return org.apache.spark.streaming.kafka010.KafkaUtils.createRDD(jsc, params, theirs,
                org.apache.spark.streaming.kafka010.LocationStrategies.PreferConsistent()).rdd();
    }

    private static String first(scala.collection.immutable.Seq<String> locations) {
        return locations.isEmpty() ? "none" : locations.head();
    }
}
