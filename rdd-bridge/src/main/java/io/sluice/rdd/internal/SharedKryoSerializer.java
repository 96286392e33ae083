package io.sluice.rdd.internal;

import java.io.Serializable;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.serializer.SerializerInstance;

/**
 * The context's Kryo for Sluice's shuffles, shared by every task of a JVM.
 *
 * <p>A shuffle's serializer travels inside every task. Spark's own {@code KryoSerializer} arrives as a new
 * object in each task, with an empty pool of Kryo instances, and builds a Kryo (registering a few hundred
 * classes) for each task that writes or reads the shuffle. This one carries only a flag: every JVM keeps one
 * serializer per environment and flag, whose pooled Kryo instances serve every task. (Not the environment's own
 * serializer: Kryo clears its whole reference map after every record, and that map stays as large as the
 * largest object graph the Kryo instance ever wrote, such as a checkpointed partition.)
 *
 * <p>The untracked variant does not track references: for shuffles of plain values (no shared references, no
 * cycles), where tracking costs a map insert for every object written and a clear of that map per record.
 */
public final class SharedKryoSerializer extends Serializer implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Object LOCK = new Object();
    /**
     * Per mode (0 untracked, 1 as configured, 2 for files): the serializer of the current environment, and that
     * environment.
     */
    private static final KryoSerializer[] cached = new KryoSerializer[3];
    private static final SparkEnv[] cachedFor = new SparkEnv[3];
    private static final int FILES = 2;

    private final boolean trackReferences;

    private SharedKryoSerializer(boolean trackReferences) {
        this.trackReferences = trackReferences;
    }

    /** The context's Kryo as configured, or null (Spark's default) when the context does not use Kryo. */
    public static Serializer ofContext() {
        return usesKryo() ? new SharedKryoSerializer(true) : null;
    }

    /** The context's Kryo without reference tracking, or null (the default) when the context does not use Kryo. */
    public static Serializer untracked() {
        return usesKryo() ? new SharedKryoSerializer(false) : null;
    }

    /**
     * Kryo without reference tracking, whatever {@code spark.serializer} is: for values a JVM keeps in its own
     * stores (an executor's RocksDB), which no other JVM or later run ever reads.
     */
    public static Serializer forLocalValues() {
        return new SharedKryoSerializer(false);
    }

    private static boolean usesKryo() {
        SparkEnv env = SparkEnv.get();
        return env != null && env.serializer() instanceof KryoSerializer;
    }

    /**
     * The context's Kryo registrations (whatever {@code spark.serializer} is) made fit to write and read files,
     * such as the write-ahead log's records ({@link FileKryo}: registered classes only), one per environment.
     */
    public static KryoSerializer forFiles() {
        return cached(FILES);
    }

    // package-private for tests
    KryoSerializer delegate() {
        return cached(trackReferences ? 1 : 0);
    }

    private static KryoSerializer cached(int mode) {
        SparkEnv env = SparkEnv.get();
        synchronized (LOCK) {
            if (cached[mode] == null || cachedFor[mode] != env) {
                SparkConf conf = env == null ? new SparkConf() : env.conf();
                cached[mode] = mode == FILES ? new FileKryoSerializer(conf) : new KryoSerializer(mode == 1 ? conf
                        : conf.clone().set("spark.kryo.referenceTracking", "false"));
                cachedFor[mode] = env;
            }
            return cached[mode];
        }
    }

    /** Spark's Kryo as configured, each pooled instance restricted by {@link FileKryo}. */
    private static final class FileKryoSerializer extends KryoSerializer {
        private static final long serialVersionUID = 1L;

        FileKryoSerializer(SparkConf conf) {
            super(conf);
        }

        @Override
        public com.esotericsoftware.kryo.Kryo newKryo() {
            return FileKryo.restrict(super.newKryo());
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
