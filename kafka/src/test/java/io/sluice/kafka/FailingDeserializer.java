package io.sluice.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/** UTF-8 strings, except that the value {@code bad} cannot be deserialized: a bad record in a topic. */
public final class FailingDeserializer implements Deserializer<String> {
    @Override
    public String deserialize(String topic, byte[] data) {
        String value = data == null ? null : new String(data, StandardCharsets.UTF_8);
        if ("bad".equals(value)) {
            throw new SerializationException("not a good value");
        }
        return value;
    }
}
