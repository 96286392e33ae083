package io.sluice.dstream.internal;

import org.apache.spark.util.ShutdownHookManager;

/**
 * Stops a streaming context when the JVM shuts down, as Spark Streaming does. The hook runs in Spark's shutdown
 * hook manager ahead of every Spark hook (a higher priority runs first): before the local executor's own hook
 * stops its task threads and before the SparkContext stops, so a graceful stop can still run its last batches.
 */
public final class ShutdownHook {
    private final Object handle;

    private ShutdownHook(Object handle) {
        this.handle = handle;
    }

    public static ShutdownHook register(Runnable stop) {
        return new ShutdownHook(ShutdownHookManager.addShutdownHook(
                ShutdownHookManager.DEFAULT_SHUTDOWN_PRIORITY() + 1, () -> {
                    stop.run();
                    return scala.runtime.BoxedUnit.UNIT;
                }));
    }

    /** Unregisters the hook (after a normal stop); harmless once the JVM is already shutting down. */
    public void remove() {
        try {
            ShutdownHookManager.removeShutdownHook(handle);
        } catch (IllegalStateException e) {
            // the JVM is shutting down already
        }
    }
}
