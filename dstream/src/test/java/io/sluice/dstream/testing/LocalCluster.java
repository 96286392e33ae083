package io.sluice.dstream.testing;

import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.StreamingContextBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A multi-process Spark cluster on this machine ({@code local-cluster[n,cores,memory]}) for tests whose driver
 * runs in a {@link ChildJvm}: the driver's environment, and the settings every such driver shares (executors
 * take the test class path, everything binds to loopback).
 */
public final class LocalCluster {
    private LocalCluster() {
    }

    /**
     * The environment of a driver that starts a local cluster: a {@code SPARK_HOME} under {@code dir} with an
     * empty {@code jars} directory (the executors get the test class path instead).
     */
    public static Map<String, String> driverEnv(Path dir) throws IOException {
        Path sparkHome = Files.createDirectories(dir.resolve("spark-home").resolve("jars")).getParent();
        return Map.of("SPARK_HOME", sparkHome.toString(), "SPARK_SCALA_VERSION", "2.13");
    }

    /**
     * A context builder for {@code master} (a {@code local-cluster[...]} URL): no Spark UI, executors of 512 MB
     * on this JVM's class path started with {@code executorJavaOptions}, driver on 127.0.0.1.
     */
    public static StreamingContextBuilder builder(String master, String executorJavaOptions) {
        return StreamingContext.builder().master(master)
                .conf("spark.ui.enabled", "false")
                .conf("spark.executor.memory", "512m")
                .conf("spark.executor.extraClassPath", System.getProperty("java.class.path"))
                .conf("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
                .conf("spark.executor.extraJavaOptions", executorJavaOptions)
                .conf("spark.driver.host", "127.0.0.1")
                .conf("spark.driver.bindAddress", "127.0.0.1");
    }
}
