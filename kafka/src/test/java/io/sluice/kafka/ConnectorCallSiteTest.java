package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.StreamTester;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/** A stream a connector creates is named after the user's line that called the connector, not the connector's. */
class ConnectorCallSiteTest {
    @Test
    void aDirectStreamIsNamedAfterTheLineThatCreatedIt() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Map<String, Object> params = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + closedPort,
                ConsumerConfig.GROUP_ID_CONFIG, "nowhere",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 1000,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false); // as a job should: no warning about it
        try (StreamTester tester = new StreamTester()) {
            tester.collect(KafkaUtils.createDirectStream(tester.context(), LocationStrategies.PreferConsistent(),
                    ConsumerStrategies.<String, String>Subscribe(List.of("nowhere"), params)).map(r -> r.value()));
            int line = new Throwable().getStackTrace()[0].getLineNumber() - 2; // the createDirectStream line
            Throwable e = assertThrows(RuntimeException.class, tester::runBatch); // no broker: the start fails
            StringBuilder messages = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                messages.append(t.getMessage()).append(" / ");
            }
            assertTrue(messages.toString().contains("directKafkaSource at ConnectorCallSiteTest.java:" + line),
                    messages.toString());
        }
    }
}
