package io.sluice.rdd.internal;

import com.esotericsoftware.kryo.Kryo;

/**
 * Classes a Sluice module wants registered with Kryo. Implementations are found with {@link
 * java.util.ServiceLoader}, so a lower module registers classes of higher ones without naming them.
 */
public interface KryoRegistrations {
    void registerClasses(Kryo kryo);
}
