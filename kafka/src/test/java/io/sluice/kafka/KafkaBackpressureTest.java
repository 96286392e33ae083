package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.internal.rate.PidRateEstimator;
import io.sluice.testkit.ManualClock;
import io.sluice.testkit.SharedSpark;
import io.sluice.testkit.SlowSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Backpressure on a direct stream, in virtual time ({@link SlowSink}): a topic of two partitions holds a backlog
 * (12,000 and 6,000 records), the sink takes 2 ms of the manual clock per record (500 records/s), and the stream
 * starts at {@code spark.streaming.backpressure.initialRate} = 1,000/s under {@code maxRatePerPartition} = 1,000.
 * The first batches overrun the interval; the scheduling delays they cause drive the engine's PID estimate down,
 * each batch's ranges follow the estimate in force when it was decided, split over the partitions by their lag as
 * Spark's {@code maxMessagesPerPartition} does, and the rate settles at what the sink takes. Every offset is read
 * once, in order: the ranges join up and the sink sees each record exactly once.
 */
class KafkaBackpressureTest {
    private static final long INTERVAL = 1000;
    private static final int BATCHES = 24;
    private static final long NANOS_PER_RECORD = 2_000_000;
    private static final double CAPACITY = 500;
    private static final int[] BACKLOG = {12_000, 6_000};
    private static TestBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = new TestBroker();
        broker.createTopic("backlog", 2);
        for (int p = 0; p < 2; p++) {
            int partition = p;
            broker.send("backlog", p, IntStream.range(0, BACKLOG[p]).mapToObj(i -> partition + "-" + i).toList());
        }
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void backpressureSettlesUnderASlowSinkAndLosesNothing() throws Exception {
        ManualClock clock = new ManualClock();
        StreamingContext ssc = StreamingContext.create(SharedSpark.context(), Duration.ofMillis(INTERVAL), clock);
        ssc.conf("spark.streaming.backpressure.enabled", "true");
        ssc.conf("spark.streaming.backpressure.initialRate", "1000");
        ssc.conf("spark.streaming.kafka.maxRatePerPartition", "1000");
        SlowSink sink = new SlowSink(clock, Duration.ofMillis(INTERVAL), BATCHES);
        Map<Long, OffsetRange[]> ranges = new TreeMap<>();
        List<String> seen = new ArrayList<>();
        KafkaUtils.createDirectStream(ssc, LocationStrategies.PreferConsistent(),
                ConsumerStrategies.<String, String>Subscribe(List.of("backlog"), broker.consumerParams("backlog")))
                .foreachRDD((rdd, time) -> {
                    OffsetRange[] batch = ((HasOffsetRanges) rdd.rdd()).offsetRanges();
                    List<String> values = rdd.map(ConsumerRecord::value).collect();
                    synchronized (ranges) {
                        ranges.put(time.milliseconds(), batch);
                        seen.addAll(values);
                    }
                    sink.process(time, Duration.ofNanos(values.size() * NANOS_PER_RECORD));
                });
        ssc.start();
        List<BatchInfo> batches = sink.run(ssc);
        System.out.println(SlowSink.table("kafka backpressure", batches));

        List<OffsetRange[]> perBatch = new ArrayList<>(ranges.values()).subList(0, BATCHES);
        long[] next = new long[2];
        for (OffsetRange[] batch : perBatch) { // ranges join up: nothing skipped, nothing read twice
            for (OffsetRange r : batch) {
                assertEquals(next[r.partition()], r.fromOffset(), "range " + r);
                next[r.partition()] = r.untilOffset();
            }
        }
        Set<String> expected = new HashSet<>();
        for (int p = 0; p < 2; p++) {
            for (int i = 0; i < ranges.values().stream().reduce((a, b) -> b).orElseThrow()[p].untilOffset(); i++) {
                expected.add(p + "-" + i);
            }
        }
        assertEquals(expected.size(), seen.size(), "every record read exactly once");
        assertEquals(expected, new HashSet<>(seen));

        // The first batch: the initial rate split by lag (2:1), as Spark's maxMessagesPerPartition splits it.
        assertEquals(List.of(666L, 333L), List.of(perBatch.get(0)[0].count(), perBatch.get(0)[1].count()));
        // Each batch holds what the PID estimate in force when it was decided allows (Spark's estimator on the
        // batches completed before its time), one record less per partition at most (whole records per range).
        PidRateEstimator pid = new PidRateEstimator(INTERVAL, 1.0, 0.2, 0.0, 100);
        double rate = 1000;
        List<BatchInfo> byCompletion = new ArrayList<>(batches);
        int fed = 0;
        for (int b = 0; b < BATCHES; b++) {
            long batchTime = batches.get(b).batchTime().milliseconds();
            while (fed < b && byCompletion.get(fed).processingEndTime() < batchTime) {
                BatchInfo done = byCompletion.get(fed++);
                OptionalDouble estimate = pid.compute(done.processingEndTime(), done.numRecords(),
                        done.processingDelay(), done.schedulingDelay());
                if (estimate.isPresent()) {
                    rate = Math.max(1, Math.round(estimate.getAsDouble()));
                }
            }
            long records = batches.get(b).numRecords();
            assertTrue(records <= rate && records >= rate - 2, "batch " + batchTime + " holds " + records
                    + " records at an estimated rate of " + rate + "/s");
            OffsetRange[] split = perBatch.get(b);
            assertTrue(Math.abs(split[0].count() - 2 * split[1].count()) <= 2, "batch " + batchTime
                    + " split by lag 2:1: " + split[0] + ", " + split[1]);
        }
        double settled = batches.subList(BATCHES - 8, BATCHES).stream().mapToLong(BatchInfo::numRecords).average()
                .orElseThrow();
        assertTrue(settled > 0.9 * CAPACITY && settled <= CAPACITY, "settled at " + settled + " records per batch");
        assertTrue(batches.get(BATCHES - 1).schedulingDelay() < INTERVAL, "the delay was worked off");
        assertTrue(batches.stream().mapToLong(BatchInfo::schedulingDelay).max().orElseThrow() > INTERVAL,
                "the sink was slow enough to make batches wait");
    }
}
