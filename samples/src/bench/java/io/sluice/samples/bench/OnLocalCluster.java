package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.streaming.api.java.JavaDStream;

/**
 * A batch workload on a multi-process cluster on this machine, {@code local-cluster[n,1,1024]}: the side's JVM
 * runs the driver, the Master and the Workers, and each of the {@code n} executors of 1 core is a JVM of its own
 * (1 GB heap, committed and touched at start like the sides' heaps). Executors take the driver's class path
 * (the Workers need a SPARK_HOME with a {@code jars} folder only to exist), everything binds to 127.0.0.1, and
 * the batches start only once every executor has registered. Same pipeline, figure and target as the workload
 * it wraps; docs/production.md has the recipe for a cluster on one machine.
 */
final class OnLocalCluster implements BatchWorkload {
    private static final int EXECUTOR_MB = 1024;
    private static final Duration REGISTRATION = Duration.ofMinutes(2);

    private final BatchWorkload workload;
    private final String id;
    private final int executors;

    OnLocalCluster(BatchWorkload workload, String id, int executors) {
        if (executors < 1) {
            throw new IllegalArgumentException(id + ": need at least one executor, got " + executors);
        }
        this.workload = workload;
        this.id = id;
        this.executors = executors;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String description() {
        return workload.id() + " on local-cluster with " + executors + (executors == 1 ? " executor" : " executors")
                + " of 1 core";
    }

    @Override
    public Figure figure() {
        return workload.figure();
    }

    @Override
    public double target() {
        return workload.target();
    }

    @Override
    public long recordsPerBatch() {
        return workload.recordsPerBatch();
    }

    @Override
    public int keys() {
        return workload.keys();
    }

    @Override
    public boolean needsCheckpointDirectory() {
        return workload.needsCheckpointDirectory();
    }

    @Override
    public Map<String, String> environment(Path dir) throws IOException {
        Path sparkHome = Files.createDirectories(dir.resolve("spark-home").resolve("jars")).getParent();
        return Map.of("SPARK_HOME", sparkHome.toAbsolutePath().toString(), "SPARK_SCALA_VERSION", "2.13",
                "SPARK_LOCAL_IP", "127.0.0.1");
    }

    @Override
    public Map<String, String> sparkSettings() {
        return Map.of("spark.master", "local-cluster[" + executors + ",1," + EXECUTOR_MB + "]",
                "spark.executor.memory", EXECUTOR_MB + "m",
                "spark.executor.extraJavaOptions", "-Xms" + EXECUTOR_MB + "m -XX:+AlwaysPreTouch",
                "spark.executor.extraClassPath", System.getProperty("java.class.path"),
                "spark.executorEnv.SPARK_SCALA_VERSION", "2.13");
    }

    @Override
    public void beforeStart(JavaSparkContext sc) throws Exception {
        awaitExecutors(sc.sc(), executors, REGISTRATION);
    }

    /** Waits until {@code executors} executors besides the driver have registered with the context. */
    static void awaitExecutors(SparkContext sc, int executors, Duration timeout)
            throws InterruptedException, TimeoutException {
        Semaphore added = new Semaphore(0);
        sc.addSparkListener(new SparkListener() {
            @Override
            public void onExecutorAdded(SparkListenerExecutorAdded event) {
                added.release();
            }
        });
        long deadline = System.nanoTime() + timeout.toNanos();
        // the driver counts as one; re-checks on every registration, and every second in case one came before
        // the listener
        while (sc.getExecutorMemoryStatus().size() < executors + 1) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("only " + (sc.getExecutorMemoryStatus().size() - 1) + " of " + executors
                        + " executors registered within " + timeout + "; see the executors' logs under SPARK_HOME/work");
            }
            added.tryAcquire(1, TimeUnit.SECONDS);
        }
    }

    @Override
    public void sluice(DStream<String> input) {
        workload.sluice(input);
    }

    @Override
    public void sparkStreaming(JavaDStream<String> input) {
        workload.sparkStreaming(input);
    }
}
