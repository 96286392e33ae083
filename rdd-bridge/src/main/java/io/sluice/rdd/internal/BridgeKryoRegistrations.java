package io.sluice.rdd.internal;

import io.sluice.rdd.KeyGroupRange;
import io.sluice.rdd.Time;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

/**
 * Registers the bridge's values that travel in records, shuffles and cached blocks (batch times, key-group
 * ranges, keyed maps). Times and ranges are records, whose final fields Kryo's field serializer cannot set, so
 * each gets a small serializer through its canonical constructor (which also re-validates what it reads).
 */
public final class BridgeKryoRegistrations implements KryoRegistrations {
    @Override
    public void registerClasses(Kryo kryo) {
        kryo.register(Time.class, new Serializer<Time>(false, true) {
            @Override
            public void write(Kryo k, Output output, Time time) {
                output.writeLong(time.milliseconds());
            }

            @Override
            public Time read(Kryo k, Input input, Class<Time> type) {
                return new Time(input.readLong());
            }
        });
        kryo.register(KeyedMap.class); // written through its KryoSerializable methods
        kryo.register(KeyGroupRange.class, new Serializer<KeyGroupRange>(false, true) {
            @Override
            public void write(Kryo k, Output output, KeyGroupRange range) {
                output.writeInt(range.start(), true);
                output.writeInt(range.end(), true);
            }

            @Override
            public KeyGroupRange read(Kryo k, Input input, Class<KeyGroupRange> type) {
                return new KeyGroupRange(input.readInt(true), input.readInt(true));
            }
        });
    }
}
