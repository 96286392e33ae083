package io.sluice.dstream.source.internal;

import com.esotericsoftware.kryo.Kryo;
import io.sluice.rdd.internal.KryoRegistrations;

/**
 * Registers what sources store in blocks: a text receiver's {@link PackedLines}. Registered, they can be written
 * to the receiver write-ahead log (which refuses unregistered classes) as well as stored in the block manager.
 */
public final class SourceKryoRegistrations implements KryoRegistrations {
    @Override
    public void registerClasses(Kryo kryo) {
        kryo.register(PackedLines.class, new PackedLines.KryoSerializer());
    }
}
