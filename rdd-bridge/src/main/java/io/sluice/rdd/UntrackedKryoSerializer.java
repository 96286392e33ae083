package io.sluice.rdd;

import java.io.Serializable;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.serializer.SerializerInstance;

/**
 * The context's Kryo without reference tracking, for shuffles of plain values (no shared references, no
 * cycles). Tracking costs a map insert for every object written and a clear of that map after every record.
 *
 * <p>A shuffle's serializer travels inside every task. Spark's own {@code KryoSerializer} would arrive as a new
 * object in each task, with an empty pool of Kryo instances, and build a Kryo (registering a few hundred classes)
 * for each task. This one carries nothing: every JVM keeps one {@code KryoSerializer} per {@link SparkEnv},
 * built from that environment's configuration, and its pooled Kryo instances serve every task.
 */
public final class UntrackedKryoSerializer extends Serializer implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Object LOCK = new Object();
    private static SparkEnv cachedFor;
    private static KryoSerializer cached;

    /** For shuffles of this context: the untracked Kryo, or null (the default) when the context does not use Kryo. */
    public static Serializer forContext() {
        SparkEnv env = SparkEnv.get();
        return env != null && env.serializer() instanceof KryoSerializer ? new UntrackedKryoSerializer() : null;
    }

    private static KryoSerializer delegate() {
        SparkEnv env = SparkEnv.get();
        synchronized (LOCK) {
            if (cached == null || cachedFor != env) {
                SparkConf conf = env == null ? new SparkConf() : env.conf();
                cached = new KryoSerializer(conf.clone().set("spark.kryo.referenceTracking", "false"));
                cachedFor = env;
            }
            return cached;
        }
    }

    @Override
    public SerializerInstance newInstance() {
        return delegate().newInstance();
    }

    @Override
    public boolean supportsRelocationOfSerializedObjects() {
        return delegate().supportsRelocationOfSerializedObjects();
    }
}
