package io.sluice.kafka;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;

/**
 * A real single-node Kafka (KRaft: broker and controller in one) in the test JVM on 127.0.0.1, in a temporary
 * directory formatted for it; {@link #close()} stops it and deletes the directory. Public (in kafka's test-jar)
 * for the samples' Kafka word count test and the K1 benchmark.
 */
public final class TestBroker implements AutoCloseable {
    private final Path dir;
    private final Properties props;
    private KafkaRaftServer server;
    private final String bootstrap;
    private final Admin admin;
    private KafkaProducer<String, String> producer;

    public TestBroker() throws IOException {
        dir = Files.createTempDirectory("sluice-kafka-broker");
        int brokerPort = freePort();
        int controllerPort = freePort();
        bootstrap = "127.0.0.1:" + brokerPort;
        props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.put("listeners", "PLAINTEXT://" + bootstrap + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://" + bootstrap);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("log.dirs", dir.resolve("logs").toString());
        props.put("num.partitions", "1");
        props.put("auto.create.topics.enable", "false");
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "1"); // the default 50 take the first transaction ~40 s
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("log.flush.interval.messages", "1000000");
        Path config = dir.resolve("server.properties");
        try (Writer w = Files.newBufferedWriter(config)) {
            props.store(w, "test broker");
        }
        int formatted = StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c",
                config.toString()}, new PrintStream(PrintStream.nullOutputStream()));
        if (formatted != 0) {
            throw new IllegalStateException("formatting the broker's log directory failed: " + formatted);
        }
        server = startServer(props);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        producer = newProducer();
    }

    private KafkaProducer<String, String> newProducer() {
        // Not idempotent, one request in flight (order kept): an idempotent producer's first write to a partition
        // whose leader was still being elected can loop on OUT_OF_ORDER_SEQUENCE_NUMBER until it expires (seen
        // under load); the tests wait for leaders after creating partitions, and check every send.
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1),
                new StringSerializer(), new StringSerializer());
    }

    private static KafkaRaftServer startServer(Properties props) {
        KafkaRaftServer started = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        started.startup();
        return started;
    }

    /** Stops the broker and starts it again on the same ports and logs, as an operator's restart would. */
    void restart() {
        producer.close(Duration.ofSeconds(10)); // a new one, so no record waits in it across the restart
        server.shutdown();
        server.awaitShutdown();
        server = startServer(props);
        producer = newProducer();
    }

    public String bootstrap() {
        return bootstrap;
    }

    Admin admin() {
        return admin;
    }

    /** Consumer parameters for a stream reading as group {@code group}, strings, from the earliest offsets. */
    public Map<String, Object> consumerParams(String group) {
        return Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.METADATA_MAX_AGE_CONFIG, 200);
    }

    public void createTopic(String topic, int partitions) {
        await(() -> admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get());
        awaitLeaders(topic, partitions);
    }

    void addPartitions(String topic, int totalPartitions) {
        await(() -> admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(totalPartitions))).all().get());
        awaitLeaders(topic, totalPartitions);
    }

    /** Waits (up to 30 s) until each of the topic's {@code partitions} partitions has a leader. */
    private void awaitLeaders(String topic, int partitions) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            boolean ready;
            try {
                var description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
                ready = description.partitions().size() == partitions
                        && description.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
            } catch (ExecutionException e) {
                ready = false; // metadata not propagated yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            if (ready) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no leader for every partition of " + topic + " within 30 s");
            }
            Thread.onSpinWait();
        }
    }

    /** Writes {@code values} to one partition, in order, and waits until the broker has them all. */
    public void send(String topic, int partition, List<String> values) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (String v : values) {
            sent.add(producer.send(new ProducerRecord<>(topic, partition, null, v)));
        }
        producer.flush();
        for (Future<RecordMetadata> f : sent) {
            await(() -> f.get(30, TimeUnit.SECONDS));
        }
    }

    private interface Call {
        void run() throws InterruptedException, ExecutionException, TimeoutException;
    }

    private static void await(Call call) {
        try {
            call.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
        admin.close(Duration.ofSeconds(10));
        server.shutdown();
        server.awaitShutdown();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
