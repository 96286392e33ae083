package io.sluice.rdd;

import io.sluice.rdd.internal.KryoRegistrations;
import com.esotericsoftware.kryo.Kryo;
import java.util.ServiceLoader;
import org.apache.spark.serializer.KryoRegistrator;

/** Spark's hook into Kryo: registers every {@link KryoRegistrations} found on the class path. */
public final class SluiceKryoRegistrator implements KryoRegistrator {
    @Override
    public void registerClasses(Kryo kryo) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = SluiceKryoRegistrator.class.getClassLoader();
        }
        for (KryoRegistrations registrations : ServiceLoader.load(KryoRegistrations.class, loader)) {
            registrations.registerClasses(kryo);
        }
    }
}
