package io.sluice.rdd.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.rdd.RDDOperationScope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * Initialises, on a daemon thread, what Spark's first RDD operation in a JVM initialises on the caller's thread:
 * every operation of Spark's RDD API (parallelize, map, foreachPartitionAsync, ...) writes its operation scope as
 * JSON, and the first one builds Jackson's object mapper with its Scala module and introspects the scope's class.
 * That takes a tenth to a fifth of the SparkContext's start, on one thread (measured in W5's restart,
 * docs/performance.md), and a restart's factory and state restore reach it right after Spark has started.
 *
 * <p>Started before a new SparkContext, it runs while Spark's start keeps one core busy. It changes nothing a
 * user sees: the JVM initialises a class once, and a thread that reaches it while this one is initialising it
 * waits for it instead of doing it again. A failure here is logged and left to the operation that meets it.
 */
public final class OperationScopeWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(OperationScopeWarmUp.class);
    private static final AtomicInteger THREADS = new AtomicInteger();

    private OperationScopeWarmUp() {
    }

    /** Starts the warm-up; the future completes when it is done (exceptionally if it failed). */
    public static CompletableFuture<Void> start() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                new RDDOperationScope("sluice-warm-up", Option.empty(), "0").toJson();
                done.complete(null);
            } catch (Throwable e) { // a LinkageError too: the operation that meets it reports it
                LOG.debug("Could not initialise Spark's RDD operation scopes ahead: {}", e.toString());
                done.completeExceptionally(e);
            }
        }, "sluice-operation-scope-warm-up-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        thread.start();
        return done;
    }
}
