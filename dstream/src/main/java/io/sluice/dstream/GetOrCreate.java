package io.sluice.dstream;

import io.sluice.dstream.internal.recovery.Recovery;
import io.sluice.state.internal.checkpoint.StatePrefetch;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function0;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link StreamingContext#getOrCreate}: the application's factory builds the graph, and the context continues
 * from the newest usable checkpoint in the directory, if there is one (read while the factory starts Spark).
 */
final class GetOrCreate {
    private static final Logger LOG = LoggerFactory.getLogger(GetOrCreate.class);

    private GetOrCreate() {
    }

    /** The factory is told whether the directory holds a checkpoint (read before any SparkContext exists). */
    static StreamingContext telling(String directory, Function<Boolean, StreamingContext> factory) {
        boolean restoring = Recovery.holdsCheckpoint(directory);
        return getOrCreate(directory, restoring, () -> factory.call(restoring));
    }

    /** {@code toldRestoring}: what the factory was told (null when it was told nothing). */
    static StreamingContext getOrCreate(String directory, Boolean toldRestoring, Function0<StreamingContext> factory) {
        return getOrCreate(directory, toldRestoring, factory, null, false);
    }

    /** Spark Streaming's form: {@code hadoopConf} reads the checkpoint; {@code createOnError} starts afresh. */
    static StreamingContext getOrCreate(String directory, Function0<StreamingContext> factory,
            Configuration hadoopConf, boolean createOnError) {
        return getOrCreate(directory, null, factory, hadoopConf, createOnError);
    }

    private static StreamingContext getOrCreate(String directory, Boolean toldRestoring,
            Function0<StreamingContext> factory, Configuration hadoopConf, boolean createOnError) {
        StatePrefetch prefetch = StatePrefetch.start(directory); // while the factory starts Spark
        StreamingContext context;
        try {
            context = factory.call();
        } catch (Exception e) {
            prefetch.close();
            throw new IllegalStateException("the StreamingContext factory failed: " + e, e);
        }
        if (hadoopConf != null) {
            applyTo(context.sparkContext().hadoopConfiguration(), hadoopConf);
        }
        continueFrom(context, directory, prefetch, createOnError);
        if (toldRestoring != null && toldRestoring != context.recoveredBatch().isPresent()) {
            context.stop(false);
            throw new IllegalStateException("the factory was told this start " + (toldRestoring ? "restores" : "does "
                    + "not restore") + " a checkpoint, but with the SparkContext's Hadoop configuration the directory "
                    + directory + (toldRestoring ? " holds none" : " holds one") + ": on this file system use the "
                    + "factory without argument, and recoveredBatch() once getOrCreate returns");
        }
        return context;
    }

    static StreamingContext getOrCreate(String directory, JavaSparkContext sc,
            Function<JavaSparkContext, StreamingContext> factory) {
        StreamingContext context;
        try {
            context = factory.call(sc);
        } catch (Exception e) {
            throw new IllegalStateException("the StreamingContext factory failed: " + e, e);
        }
        if (context.sparkContext().sc() != sc.sc()) {
            throw new IllegalStateException("the StreamingContext factory must build on the SparkContext it is given");
        }
        return continueFrom(context, directory, StatePrefetch.none(), false);
    }

    /** Sets on {@code target} what {@code given} sets beyond the classpath's defaults (comparing with a fresh one). */
    private static void applyTo(Configuration target, Configuration given) {
        Configuration defaults = new Configuration();
        for (Map.Entry<String, String> entry : given) {
            String value = given.get(entry.getKey()); // with variables expanded, as readers see it
            if (value != null && !value.equals(defaults.get(entry.getKey()))) {
                target.set(entry.getKey(), value);
            }
        }
    }

    private static StreamingContext continueFrom(StreamingContext context, String directory, StatePrefetch prefetch,
            boolean createOnError) {
        try {
            String set = context.checkpointDirectory();
            if (set == null) {
                context.checkpoint(directory);
            } else if (!set.equals(directory)) {
                throw new IllegalStateException("the factory set the checkpoint directory " + set
                        + ", but getOrCreate was given " + directory + ": use one directory");
            }
            if (!context.sparkContext().isLocal()) {
                prefetch.close(); // the restore's tasks run in executors, which read the files themselves
            }
            Recovery recovered;
            try {
                recovered = Recovery.recover(directory, context.sparkContext(), context.settings.recovery(), prefetch);
            } catch (UncheckedIOException e) {
                if (!createOnError) {
                    throw e;
                }
                LOG.warn("Starting afresh (createOnError): {}", e.getMessage());
                prefetch.close();
                recovered = null; // start() opens the directory to write new checkpoints, newer than the bad ones
            }
            if (recovered != null) {
                context.lifecycle.continueFrom(recovered);
            }
            return context;
        } catch (RuntimeException e) {
            prefetch.close();
            throw e;
        }
    }
}
