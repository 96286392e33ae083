package io.sluice.state.internal.rocksdb;

import io.sluice.rdd.KeyGroups;
import io.sluice.rdd.internal.ClassTags;
import io.sluice.rdd.internal.SharedKryoSerializer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.spark.serializer.SerializerInstance;

/**
 * How keys, states and times are laid out in a {@link RocksStore}. Not thread-safe: one per task or reader.
 *
 * <ul>
 * <li>A key: its key group (2 bytes, big-endian), so that a key group is one contiguous range of the store, then
 * the key itself: a type byte and, for strings, longs and ints, their plain bytes (UTF-8; big-endian), for anything
 * else its Kryo bytes. Keys are compared by these bytes: keys that are equal must serialize alike (true of strings,
 * numbers, tuples and records of them).</li>
 * <li>An entry's value: the last update time (8 bytes), then the state (a type byte and its bytes, as keys).</li>
 * <li>A time-index key: the time (8 bytes, big-endian, so time order is byte order for non-negative times), then
 * the entry's key bytes.</li>
 * </ul>
 */
final class RocksCodec {
    private static final byte KRYO = 0;
    private static final byte STRING = 1;
    private static final byte LONG = 2;
    private static final byte INT = 3;

    private final KeyGroups groups;
    private SerializerInstance kryo;

    RocksCodec(KeyGroups groups) {
        this.groups = groups;
    }

    byte[] key(Object key) {
        int group = groups.groupOf(key);
        return encode(key, (byte) (group >>> 8), (byte) group, 2);
    }

    Object decodeKey(byte[] bytes) {
        return decode(bytes, 2);
    }

    /** The key bytes inside a time-index key. */
    static byte[] keyOfTimeKey(byte[] timeKey) {
        byte[] key = new byte[timeKey.length - 8];
        System.arraycopy(timeKey, 8, key, 0, key.length);
        return key;
    }

    static long timeOfTimeKey(byte[] timeKey) {
        return ByteBuffer.wrap(timeKey, 0, 8).getLong();
    }

    static byte[] timeKey(long time, byte[] key) {
        return ByteBuffer.allocate(8 + key.length).putLong(time).put(key).array();
    }

    static byte[] timePrefix(long time) {
        return ByteBuffer.allocate(8).putLong(time).array();
    }

    byte[] value(Object state, long lastUpdate) {
        byte[] bytes = encode(state, (byte) 0, (byte) 0, 8);
        ByteBuffer.wrap(bytes, 0, 8).putLong(lastUpdate);
        return bytes;
    }

    static long timeOfValue(byte[] value) {
        return ByteBuffer.wrap(value, 0, 8).getLong();
    }

    Object decodeState(byte[] value) {
        return decode(value, 8);
    }

    /** {@code o}'s type byte and bytes after {@code reserved} leading bytes (the first two set to b0, b1). */
    private byte[] encode(Object o, byte b0, byte b1, int reserved) {
        byte[] out;
        if (o instanceof String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            out = new byte[reserved + 1 + utf8.length];
            out[reserved] = STRING;
            System.arraycopy(utf8, 0, out, reserved + 1, utf8.length);
        } else if (o instanceof Long l) {
            out = new byte[reserved + 9];
            out[reserved] = LONG;
            ByteBuffer.wrap(out, reserved + 1, 8).putLong(l);
        } else if (o instanceof Integer i) {
            out = new byte[reserved + 5];
            out[reserved] = INT;
            ByteBuffer.wrap(out, reserved + 1, 4).putInt(i);
        } else {
            ByteBuffer b = kryo().serialize(o, ClassTags.any());
            out = new byte[reserved + 1 + b.remaining()];
            out[reserved] = KRYO;
            b.get(out, reserved + 1, b.remaining());
        }
        if (reserved >= 2) {
            out[0] = b0;
            out[1] = b1;
        }
        return out;
    }

    private Object decode(byte[] bytes, int from) {
        byte type = bytes[from];
        int at = from + 1;
        return switch (type) {
            case STRING -> new String(bytes, at, bytes.length - at, StandardCharsets.UTF_8);
            case LONG -> ByteBuffer.wrap(bytes, at, 8).getLong();
            case INT -> ByteBuffer.wrap(bytes, at, 4).getInt();
            case KRYO -> kryo().deserialize(ByteBuffer.wrap(bytes, at, bytes.length - at), ClassTags.any());
            default -> throw new IllegalStateException("unknown value type " + type + " in a RocksDB state store");
        };
    }

    private SerializerInstance kryo() {
        if (kryo == null) {
            kryo = SharedKryoSerializer.forLocalValues().newInstance();
        }
        return kryo;
    }
}
