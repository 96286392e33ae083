package io.sluice.samples;

import io.sluice.dstream.DStream;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.StreamingContext;
import io.sluice.kafka.ConsumerStrategies;
import io.sluice.kafka.DirectKafkaSource;
import io.sluice.kafka.HasOffsetRanges;
import io.sluice.kafka.KafkaUtils;
import io.sluice.kafka.LocationStrategies;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import scala.Tuple2;

/**
 * Counts the words in the records of Kafka topics, every 2 s: Spark's {@code JavaDirectKafkaWordCount} on
 * Sluice, ported by changing its imports and how the context is made. Unlike Spark's sample, it commits each
 * batch's offsets to Kafka after the batch's output, as Spark's Kafka guide recommends, instead of letting the
 * driver's consumer auto-commit ahead of the batches (Sluice warns about that setting).
 *
 * <p>Usage: {@code KafkaWordCount <brokers> <groupId> <topics> [<output>]}: {@code brokers} a list of one or more
 * Kafka brokers ({@code host:port,...}), {@code groupId} the consumer group, {@code topics} a list of one or more
 * topics to read, {@code output} (not in Spark's sample) a directory where each batch's counts are also saved as
 * text files {@code counts-<batch ms>.txt}. The README says how to run it against a broker.
 */
public final class KafkaWordCount {
    private static final Pattern SPACE = Pattern.compile(" ");

    private KafkaWordCount() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("Usage: KafkaWordCount <brokers> <groupId> <topics> [<output>]\n"
                    + "  <brokers> is a list of one or more Kafka brokers\n"
                    + "  <groupId> is a consumer group name to consume from topics\n"
                    + "  <topics> is a list of one or more kafka topics to consume from\n"
                    + "  <output> (optional) is a directory to save each batch's counts in\n");
            System.exit(1);
        }
        String brokers = args[0];
        String groupId = args[1];
        Set<String> topics = new HashSet<>(Arrays.asList(args[2].split(",")));

        // Spark: new JavaStreamingContext(sparkConf, Durations.seconds(2))
        StreamingContext ssc = StreamingContext.builder().appName("KafkaWordCount")
                .batchInterval(Duration.ofSeconds(2)).build();
        DirectKafkaSource<String, String> source = KafkaUtils.createDirectSource(LocationStrategies.PreferConsistent(),
                ConsumerStrategies.Subscribe(topics, kafkaParams(brokers, groupId)));
        DStream<ConsumerRecord<String, String>> messages = ssc.inputStream(source);
        PairDStream<String, Integer> counts = wordCounts(messages);
        if (args.length > 3) { // saved before printed: a printed batch's files are committed
            counts.saveAsTextFiles(args[3] + "/counts", "txt");
        }
        counts.print();
        // Output operations run in order: the offsets are committed once the batch's counts are out.
        messages.foreachRDD(rdd -> source.commitAsync(((HasOffsetRanges) rdd.rdd()).offsetRanges()));

        ssc.start();
        ssc.awaitTermination();
    }

    /**
     * The consumer parameters, as Spark's sample sets them (brokers, group, string keys and values), with
     * auto-commit off: {@link #main} commits after each batch's output.
     */
    public static Map<String, Object> kafkaParams(String brokers, String groupId) {
        Map<String, Object> kafkaParams = new HashMap<>();
        kafkaParams.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
        kafkaParams.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        kafkaParams.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        kafkaParams.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        kafkaParams.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return kafkaParams;
    }

    /** Each batch's records' values split into words, counted. */
    public static PairDStream<String, Integer> wordCounts(DStream<ConsumerRecord<String, String>> messages) {
        DStream<String> lines = messages.map(ConsumerRecord::value);
        DStream<String> words = lines.flatMap(x -> Arrays.asList(SPACE.split(x)).iterator());
        return words.mapToPair(s -> new Tuple2<>(s, 1)).reduceByKey((i1, i2) -> i1 + i2);
    }
}
