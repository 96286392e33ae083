package io.sluice.dstream.source.internal.receiver;

import io.sluice.rdd.internal.ClassTags;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkEnv;
import org.apache.spark.serializer.SerializerInstance;

/**
 * A block's records as bytes for the write-ahead log, in Spark's configured serializer (Kryo by default): the
 * same way the block manager serializes them. Only records are written, never code.
 */
final class BlockCodec {
    private BlockCodec() {
    }

    static byte[] encode(List<?> records) {
        SerializerInstance s = SparkEnv.get().serializer().newInstance();
        ByteBuffer buffer = s.serialize(new ArrayList<>(records), ClassTags.any());
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    @SuppressWarnings("unchecked")
    static <T> List<T> decode(byte[] bytes) {
        SerializerInstance s = SparkEnv.get().serializer().newInstance();
        return (List<T>) s.deserialize(ByteBuffer.wrap(bytes), ClassTags.any());
    }
}
