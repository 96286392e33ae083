package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.DStream;
import io.sluice.dstream.Settings;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.testkit.Collected;
import io.sluice.testkit.SharedSpark;
import io.sluice.testkit.StreamTester;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Direct streams over a real broker, batch by batch on the test kit's manual clock. */
class DirectStreamTest {
    private static TestBroker broker;

    @BeforeAll
    static void startBroker() throws IOException {
        broker = new TestBroker();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static List<String> values(String prefix, int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> prefix + i).toList();
    }

    /** Each record as {@code partition:offset:value}, computed in the tasks. */
    private static DStream<String> described(DStream<ConsumerRecord<String, String>> stream) {
        return stream.map(r -> r.partition() + ":" + r.offset() + ":" + r.value());
    }

    private static ConsumerStrategy<String, String> subscribe(String topic, String group) {
        return ConsumerStrategies.Subscribe(List.of(topic), broker.consumerParams(group));
    }

    private static Set<String> set(List<String> batch) {
        return new HashSet<>(batch);
    }

    @Test
    void eachBatchHoldsTheRecordsWrittenSinceTheLastOneAndItsRddHasTheirOffsetRanges() {
        broker.createTopic("basic", 2);
        broker.send("basic", 0, values("a", 0, 3));
        broker.send("basic", 1, values("b", 0, 2));
        try (StreamTester tester = new StreamTester()) {
            DStream<ConsumerRecord<String, String>> stream = KafkaUtils.createDirectStream(tester.context(),
                    LocationStrategies.PreferConsistent(),
                    ConsumerStrategies.<String, String>Subscribe(List.of("basic"), broker.consumerParams("basic")));
            List<OffsetRange[]> seen = new CopyOnWriteArrayList<>();
            stream.foreachRDD(rdd -> {
                OffsetRange[] offsetRanges = ((HasOffsetRanges) rdd.rdd()).offsetRanges(); // Spark's own line
                seen.add(offsetRanges);
            });
            Collected<String> out = tester.collect(described(stream));
            tester.runBatch();
            broker.send("basic", 1, values("b", 2, 4));
            tester.runBatch();
            tester.runBatch();

            assertEquals(List.of(Set.of("0:0:a0", "0:1:a1", "0:2:a2", "1:0:b0", "1:1:b1"), Set.of("1:2:b2", "1:3:b3"),
                    Set.of()), out.batches().stream().map(DirectStreamTest::set).toList());
            assertEquals(List.of(OffsetRange.create("basic", 0, 0, 3), OffsetRange.create("basic", 1, 0, 2)),
                    Arrays.asList(seen.get(0)));
            assertEquals(List.of(OffsetRange.create("basic", 0, 3, 3), OffsetRange.create("basic", 1, 2, 4)),
                    Arrays.asList(seen.get(1)));
            assertEquals(5, tester.completedBatches().get(0).numRecords());
        }
    }

    @Test
    void assignReadsTheGivenPartitionsFromTheGivenOffsetsAndTransformSeesTheRanges() {
        broker.createTopic("assigned", 2);
        broker.send("assigned", 0, values("a", 0, 5));
        broker.send("assigned", 1, values("b", 0, 5));
        TopicPartition p0 = new TopicPartition("assigned", 0);
        try (StreamTester tester = new StreamTester()) {
            DStream<ConsumerRecord<String, String>> stream = KafkaUtils.createDirectStream(tester.context(),
                    LocationStrategies.PreferFixed(Map.of(p0, "127.0.0.1")), ConsumerStrategies.<String, String>Assign(
                            List.of(p0), broker.consumerParams("assigned"), Map.of(p0, 3L)));
            Collected<String> out = tester.collect(stream.transform(rdd -> {
                OffsetRange range = ((HasOffsetRanges) rdd.rdd()).offsetRanges()[0];
                return rdd.map(r -> r.value() + "@" + range.fromOffset() + "-" + range.untilOffset());
            }));
            tester.runBatch();

            assertEquals(List.of(List.of("a3@3-5", "a4@3-5")), out.batches());
        }
    }

    @Test
    void partitionsAddedToASubscribedTopicArePickedUp() {
        broker.createTopic("growing", 1);
        broker.send("growing", 0, values("a", 0, 2));
        try (StreamTester tester = new StreamTester()) {
            Collected<String> out = tester.collect(described(KafkaUtils.createDirectStream(tester.context(),
                    LocationStrategies.PreferConsistent(),
                    subscribe("growing", "growing"))));
            tester.runBatch();
            broker.addPartitions("growing", 2);
            broker.send("growing", 1, values("b", 0, 3));
            Set<String> read = new HashSet<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!read.containsAll(Set.of("1:0:b0", "1:1:b1", "1:2:b2")) && System.nanoTime() < deadline) {
                tester.runBatch(); // the driver's consumer sees the partition once its metadata is refreshed
                read.clear();
                out.batches().forEach(read::addAll);
            }
            assertEquals(Set.of("0:0:a0", "0:1:a1", "1:0:b0", "1:1:b1", "1:2:b2"), read);
            assertEquals(5, out.batches().stream().mapToInt(List::size).sum(), "no record read twice");
        }
    }

    @Test
    void aDeletedTopicFailsTheBatchNamingTheSourceTheBatchAndTheTopic() throws Exception {
        broker.createTopic("deleted", 1);
        broker.send("deleted", 0, values("a", 0, 2));
        Map<String, Object> quickTimeout = new java.util.HashMap<>(broker.consumerParams("deleted"));
        quickTimeout.put("default.api.timeout.ms", 3000); // how long the driver waits for a partition's position
        try (StreamTester tester = new StreamTester()) {
            tester.context().conf(Settings.CONTINUE_ON_BATCH_FAILURE, "true");
            tester.context().conf("sluice.input.badRecords", "fail");
            tester.collect(described(KafkaUtils.createDirectStream(tester.context(),
                    LocationStrategies.PreferConsistent(),
                    ConsumerStrategies.<String, String>Subscribe(List.of("deleted"), quickTimeout))));
            tester.runBatch();
            broker.admin().deleteTopics(List.of("deleted")).all().get();
            BatchInfo failed = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (failed == null && System.nanoTime() < deadline) {
                BatchInfo info = tester.runBatch(); // fails once the driver's consumer sees the topic gone
                failed = info.failed() ? info : null;
            }
            assertTrue(failed != null, "a batch failed");
            String reason = String.join("; ", StreamTester.failureReasons(failed));
            assertTrue(reason.contains("directKafkaSource") && reason.contains(failed.batchTime().toString())
                    && reason.contains("topic deleted was deleted"), reason);
        }
    }

    @Test
    void aBrokerRestartedBetweenBatchesLosesAndRepeatsNothing() {
        broker.createTopic("restarted", 2);
        broker.send("restarted", 0, values("a", 0, 3));
        try (StreamTester tester = new StreamTester()) {
            Collected<String> out = tester.collect(described(KafkaUtils.createDirectStream(tester.context(),
                    LocationStrategies.PreferConsistent(), subscribe("restarted", "restarted"))));
            tester.runBatch();
            broker.restart();
            broker.send("restarted", 1, values("b", 0, 3));
            tester.runBatch(); // the driver's and the executors' consumers reconnect
            broker.send("restarted", 0, values("a", 3, 4));
            tester.runBatch();

            assertEquals(List.of(Set.of("0:0:a0", "0:1:a1", "0:2:a2"), Set.of("1:0:b0", "1:1:b1", "1:2:b2"),
                    Set.of("0:3:a3")), out.batches().stream().map(DirectStreamTest::set).toList());
            assertTrue(tester.completedBatches().stream().noneMatch(BatchInfo::failed));
        }
    }

    @Test
    void anUnreachableBrokerFailsTheStartNamingTheSourceAndTheServers() throws IOException {
        Map<String, Object> params = new java.util.HashMap<>(broker.consumerParams("nowhere"));
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        params.put("bootstrap.servers", "127.0.0.1:" + closedPort);
        params.put("default.api.timeout.ms", 2000);
        try (StreamTester tester = new StreamTester()) {
            tester.collect(KafkaUtils.createDirectStream(tester.context(), LocationStrategies.PreferConsistent(),
                    ConsumerStrategies.<String, String>Subscribe(List.of("nowhere"), params)).map(r -> r.value()));
            Throwable e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, tester::runBatch);
            StringBuilder messages = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                messages.append(t.getMessage()).append(" / ");
            }
            String text = messages.toString();
            assertTrue(text.contains("directKafkaSource") && text.contains("no Kafka broker answered")
                    && text.contains("127.0.0.1:" + closedPort), text);
        }
    }

    @Test
    void aRecordThatFailsToDeserializeIsSkippedAndCountedByDefaultOrWithFailFailsTheBatch() {
        broker.createTopic("badRecords", 1);
        broker.send("badRecords", 0, List.of("a0", "bad", "a2"));
        Map<String, Object> params = new java.util.HashMap<>(broker.consumerParams("badRecords"));
        params.put("value.deserializer", FailingDeserializer.class);
        try (StreamTester tester = new StreamTester()) {
            tester.context().conf(Settings.CONTINUE_ON_BATCH_FAILURE, "true");
            tester.context().conf("sluice.input.badRecords", "fail");
            tester.collect(described(KafkaUtils.createDirectStream(tester.context(),
                    LocationStrategies.PreferConsistent(),
                    ConsumerStrategies.Subscribe(List.of("badRecords"), params))));
            String reason = String.join("; ", tester.runFailingBatch());
            assertTrue(reason.contains("directKafkaSource") && reason.contains("batch 1000 ms")
                    && reason.contains("offset 1 of badRecords-0") && reason.contains("sluice.input.badRecords=skip"),
                    reason);
        }
        for (String policy : new String[] {null, "skip"}) {
            try (StreamTester tester = new StreamTester()) {
                if (policy != null) {
                    tester.context().conf("sluice.input.badRecords", policy);
                }
                Collected<String> out = tester.collect(described(KafkaUtils.createDirectStream(tester.context(),
                        LocationStrategies.PreferConsistent(),
                        ConsumerStrategies.Subscribe(List.of("badRecords"), params))));
                BatchInfo info = tester.runBatch();

                assertEquals(List.of(List.of("0:0:a0", "0:2:a2")), out.batches(), "policy " + policy);
                assertEquals(2, info.numRecords());
                assertEquals(1, info.skippedRecords());
            }
        }
    }

    @Test
    void maxRatePerPartitionBoundsEveryBatch() {
        broker.createTopic("limited", 2);
        broker.send("limited", 0, values("a", 0, 12));
        broker.send("limited", 1, values("b", 0, 3));
        try (StreamTester tester = new StreamTester(Duration.ofMillis(500))) {
            tester.context().conf("spark.streaming.kafka.maxRatePerPartition", "10"); // 5 per partition per batch
            Collected<String> out = tester.collect(described(KafkaUtils.createDirectStream(tester.context(),
                    LocationStrategies.PreferConsistent(),
                    subscribe("limited", "limited"))));
            tester.runBatches(4);

            List<Set<String>> expected = List.of(
                    Set.of("0:0:a0", "0:1:a1", "0:2:a2", "0:3:a3", "0:4:a4", "1:0:b0", "1:1:b1", "1:2:b2"),
                    Set.of("0:5:a5", "0:6:a6", "0:7:a7", "0:8:a8", "0:9:a9"), Set.of("0:10:a10", "0:11:a11"), Set.of());
            assertEquals(expected, out.batches().stream().map(DirectStreamTest::set).toList());
        }
    }

    @Test
    void perPartitionConfigLimitsEachPartitionOnItsOwnWithAtLeastTheMinimumPerBatch() {
        broker.createTopic("perPartition", 2);
        broker.send("perPartition", 0, values("a", 0, 3));
        broker.send("perPartition", 1, values("b", 0, 3));
        PerPartitionConfig config = new PerPartitionConfig() {
            @Override
            public long maxRatePerPartition(TopicPartition topicPartition) {
                return topicPartition.partition() == 0 ? 1 : 0; // 1 a second: half a record a batch, so the minimum
            }
        };
        try (StreamTester tester = new StreamTester(Duration.ofMillis(500))) {
            Collected<String> out = tester.collect(described(KafkaUtils.createDirectStream(tester.context(),
                    LocationStrategies.PreferConsistent(), ConsumerStrategies.<String, String>Subscribe(
                            List.of("perPartition"), broker.consumerParams("perPartition")), config)));
            tester.runBatches(3);

            assertEquals(List.of(Set.of("0:0:a0", "1:0:b0", "1:1:b1", "1:2:b2"), Set.of("0:1:a1"), Set.of("0:2:a2")),
                    out.batches().stream().map(DirectStreamTest::set).toList());
        }
    }

    @Test
    void commitAsyncCommitsTheBatchesOffsetsForTheGroup() throws Exception {
        broker.createTopic("committed", 1);
        broker.send("committed", 0, values("a", 0, 4));
        CountDownLatch committed = new CountDownLatch(1);
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (StreamTester tester = new StreamTester()) {
            DirectKafkaSource<String, String> source = KafkaUtils.createDirectSource(
                    LocationStrategies.PreferConsistent(),
                    subscribe("committed", "committer"));
            DStream<ConsumerRecord<String, String>> stream = tester.context().inputStream(source);
            stream.foreachRDD(rdd -> {
                OffsetRange[] offsetRanges = ((HasOffsetRanges) rdd.rdd()).offsetRanges();
                if (rdd.count() > 0) {
                    source.commitAsync(offsetRanges, (offsets, e) -> {
                        failure.set(e);
                        committed.countDown();
                    });
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (committed.getCount() > 0 && System.nanoTime() < deadline) {
                tester.runBatch(); // commits go out, and their callbacks run, as later batches are computed
            }
            assertTrue(committed.await(0, TimeUnit.SECONDS), "the commit's callback was called");
            assertNull(failure.get());
            Map<TopicPartition, OffsetAndMetadata> offsets = broker.admin().listConsumerGroupOffsets("committer")
                    .partitionsToOffsetAndMetadata().get();
            assertEquals(4L, offsets.get(new TopicPartition("committed", 0)).offset());
        }
    }

    @Test
    void createRddReadsExactlyTheGivenRanges() {
        broker.createTopic("bounded", 2);
        broker.send("bounded", 0, values("a", 0, 6));
        broker.send("bounded", 1, values("b", 0, 6));
        OffsetRange[] ranges = {OffsetRange.create("bounded", 0, 1, 3), OffsetRange.create("bounded", 1, 4, 6),
            OffsetRange.create("bounded", 1, 0, 0)};
        var rdd = KafkaUtils.<String, String>createRDD(SharedSpark.context(), broker.consumerParams("bounded"), ranges,
                LocationStrategies.PreferConsistent());

        assertEquals(Arrays.asList(ranges), Arrays.asList(((HasOffsetRanges) rdd.rdd()).offsetRanges()));
        assertEquals(List.of("a1", "a2", "b4", "b5"), new ArrayList<>(rdd.map(ConsumerRecord::value).collect()));
    }

    /**
     * Spark's KafkaRDD answers count, isEmpty and take from its offsets; a user's {@code if (!rdd.isEmpty())} on an
     * idle topic then costs no job. Here neither that nor {@code DStream.count()} runs one when nothing was written.
     */
    @Test
    void anIdleTopicsBatchIsCountedAndFoundEmptyWithoutASparkJob() {
        broker.createTopic("idle", 2);
        broker.send("idle", 0, values("a", 0, 3));
        try (StreamTester tester = new StreamTester()) {
            DStream<ConsumerRecord<String, String>> stream = KafkaUtils.createDirectStream(tester.context(),
                    LocationStrategies.PreferConsistent(), subscribe("idle", "idle"));
            var dag = tester.context().sparkContext().sc().dagScheduler();
            List<String> actions = new CopyOnWriteArrayList<>();
            stream.foreachRDD(rdd -> {
                int before = dag.numTotalJobs();
                String answers = rdd.isEmpty() + " " + rdd.count() + " " + rdd.take(2).size();
                actions.add(answers + (dag.numTotalJobs() > before ? " with jobs" : " without a job"));
            });
            Collected<Long> counts = tester.collect(stream.count());
            tester.runBatch();
            int beforeIdleBatch = dag.numTotalJobs();
            tester.runBatch();

            assertEquals(List.of("false 3 2 with jobs", "true 0 0 without a job"), actions);
            assertEquals(List.of(List.of(3L), List.of(0L)), counts.batches());
            assertEquals(beforeIdleBatch, dag.numTotalJobs(), "the idle topic's batch ran a Spark job");
        }
    }
}
