package io.sluice.dstream;

import io.sluice.dstream.internal.recovery.Recovery;
import io.sluice.state.internal.checkpoint.StatePrefetch;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function0;

/**
 * {@link StreamingContext#getOrCreate}: the application's factory builds the graph, and the context continues
 * from the newest usable checkpoint in the directory, if there is one (read while the factory starts Spark).
 */
final class GetOrCreate {
    private GetOrCreate() {
    }

    /** The factory is told whether the directory holds a checkpoint (read before any SparkContext exists). */
    static StreamingContext telling(String directory, Function<Boolean, StreamingContext> factory) {
        boolean restoring = Recovery.holdsCheckpoint(directory);
        return getOrCreate(directory, restoring, () -> factory.call(restoring));
    }

    /** {@code toldRestoring}: what the factory was told (null when it was told nothing). */
    static StreamingContext getOrCreate(String directory, Boolean toldRestoring, Function0<StreamingContext> factory) {
        StatePrefetch prefetch = StatePrefetch.start(directory); // while the factory starts Spark
        StreamingContext context;
        try {
            context = factory.call();
        } catch (Exception e) {
            prefetch.close();
            throw new IllegalStateException("the StreamingContext factory failed: " + e, e);
        }
        continueFrom(context, directory, prefetch);
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
        return continueFrom(context, directory, StatePrefetch.none());
    }

    private static StreamingContext continueFrom(StreamingContext context, String directory, StatePrefetch prefetch) {
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
            context.lifecycle.continueFrom(Recovery.recover(directory, context.sparkContext(),
                    context.settings.recovery(), prefetch));
            return context;
        } catch (RuntimeException e) {
            prefetch.close();
            throw e;
        }
    }
}
