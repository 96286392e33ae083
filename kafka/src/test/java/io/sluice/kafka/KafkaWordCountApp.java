package io.sluice.kafka;

import io.sluice.dstream.DStream;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.Settings;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import scala.Tuple2;

/**
 * The application the Kafka kill test crashes: a word count over a direct stream of {@link #WORDS} (two
 * partitions), with each batch's offset ranges, its word counts and the running totals (mapWithState) saved as
 * text files, and every record's {@code partition:offset} written to {@link #SUNK} by the transactional sink;
 * restarted with getOrCreate. It prints its progress ("submitted t", "output t", "completed t", and
 * "sink p:o" while a sink transaction is open, every tenth record) so that the test can kill it anywhere.
 *
 * <p>Time is virtual and runs as fast as the batches (the clock moves on as soon as a batch completes); a
 * restart moves it {@code jump} intervals past the recovered batch, so the driver misses batches "while down".
 * A rate limit keeps batches small, so a run spans several.
 *
 * <p>Arguments: bootstrap servers, checkpoint directory, output directory, the number of records after which
 * to stop gracefully (0: run until killed), jump.
 */
public final class KafkaWordCountApp {
    static final String WORDS = "words";
    static final String SUNK = "sunk";
    static final int PARTITIONS = 2;
    static final int KEYS = 30;
    static final int MAX_RATE = 40;
    static final Duration INTERVAL = Duration.ofSeconds(1);

    private KafkaWordCountApp() {
    }

    /** The word the test's producer writes at {@code offset} of {@code partition}. */
    static String word(int partition, long offset) {
        return "w" + Math.floorMod(offset * 31 + partition * 17, KEYS);
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String checkpoint = args[1];
        String out = args[2];
        long stopAfter = Long.parseLong(args[3]);
        int jump = Integer.parseInt(args[4]);
        ManualClock clock = new ManualClock();
        Map<Long, Long> readUpTo = new ConcurrentHashMap<>(); // batch time -> sum of its ranges' until offsets
        StreamingContext context = StreamingContext.getOrCreate(checkpoint, () -> {
            StreamingContext c = StreamingContext.builder().master("local[2]").appName("kafka-kill-test")
                    .batchInterval(INTERVAL)
                    .clock(clock)
                    .conf("spark.ui.enabled", "false")
                    .conf("spark.default.parallelism", "2")
                    .conf("spark.driver.host", "127.0.0.1")
                    .conf("spark.driver.bindAddress", "127.0.0.1")
                    .conf("spark.streaming.kafka.maxRatePerPartition", String.valueOf(MAX_RATE))
                    .conf(Settings.GRACEFUL_STOP_TIMEOUT, "120s")
                    .build();
            c.sparkContext().setLogLevel("WARN");
            build(c, bootstrap, out, readUpTo);
            return c;
        });
        CountDownLatch done = new CountDownLatch(1);
        context.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchSubmitted(BatchSubmitted event) {
                say("submitted " + event.batchInfo().batchTime().milliseconds());
            }

            @Override
            public void onOutputOperationCompleted(OutputOperationCompleted event) {
                say("output " + event.outputOperationInfo().batchTime().milliseconds());
            }

            @Override
            public void onBatchCompleted(BatchCompleted event) {
                long t = event.batchInfo().batchTime().milliseconds();
                say("completed " + t);
                if (stopAfter > 0 && readUpTo.getOrDefault(t, -1L) == stopAfter) {
                    // Time stops here: a graceful stop stops the sources before the batches generated after it
                    // have run (ContextLifecycle.stop), so a batch generated now would fail to read its ranges.
                    done.countDown();
                } else if (clock.millis() < t + INTERVAL.toMillis()) {
                    clock.setTime(t + INTERVAL.toMillis());
                }
            }
        });
        say("recovered " + context.recoveredBatch().map(t -> String.valueOf(t.milliseconds())).orElse("none"));
        long resume = context.recoveredBatch().map(t -> t.milliseconds() + INTERVAL.toMillis()).orElse(0L);
        clock.setTime(resume + jump * INTERVAL.toMillis());
        context.start();
        clock.advance(INTERVAL);
        if (stopAfter > 0) {
            done.await();
            context.stop(true, true);
            say("stopped");
        } else {
            context.awaitTermination();
        }
    }

    private static void build(StreamingContext c, String bootstrap, String out, Map<Long, Long> readUpTo) {
        // Assign, not Subscribe: a killed driver's group member would hold the partitions until its session expires
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(new TopicPartition(WORDS, p));
        }
        DStream<ConsumerRecord<String, String>> records = KafkaUtils.createDirectStream(c,
                LocationStrategies.PreferConsistent(), ConsumerStrategies.<String, String>Assign(partitions, Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, "kill-test",
                        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)));
        records.transform((rdd, time) -> {
            List<String> lines = new ArrayList<>();
            long until = 0;
            for (OffsetRange r : ((HasOffsetRanges) rdd.rdd()).offsetRanges()) {
                lines.add(r.partition() + " " + r.fromOffset() + " " + r.untilOffset());
                until += r.untilOffset();
            }
            readUpTo.put(time.milliseconds(), until);
            return JavaSparkContext.fromSparkContext(rdd.context()).parallelize(lines, 1);
        }).saveAsTextFiles(out + "/ranges", "txt");
        PairDStream<String, Long> ones = records.mapToPair(r -> new Tuple2<>(r.value(), 1L));
        ones.reduceByKey(Long::sum).saveAsTextFiles(out + "/counts", "txt");
        ones.mapWithState(StateSpec.function(KafkaWordCountApp::runningCount).numPartitions(PARTITIONS))
                .name("totals")
                .checkpoint(INTERVAL.multipliedBy(2))
                .stateSnapshots()
                .saveAsTextFiles(out + "/state", "txt");
        KafkaSink.writeTransactionally(records.map(r -> r.partition() + ":" + r.offset()), SUNK, Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "kill-test-sink"), (String v) -> {
                    if (v.endsWith("0")) { // every tenth offset: the test may kill the driver during a transaction
                        say("sink " + v);
                    }
                    return new Tuple2<String, String>(null, v);
                });
    }

    static Tuple2<String, Long> runningCount(String word, Optional<Long> one, State<Long> state) {
        long total = state.getOption().orElse(0L) + one.orElse(0L);
        state.update(total);
        return new Tuple2<>(word, total);
    }

    private static void say(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
            System.err.println(java.time.LocalTime.now() + " " + line); // timed, in the log failures quote
        }
    }
}
