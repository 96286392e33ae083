package io.sluice.dstream.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A standalone Spark cluster on this machine from the test class path: a Master and Workers, each its own JVM,
 * bound to 127.0.0.1 (docs: ../shared/spark-cluster.md). Executors are the Workers' child processes; the
 * application's driver is the test JVM (see {@link LocalCluster#builder} for its settings). {@link #close} kills
 * every process it started, executors included.
 */
public final class StandaloneCluster implements AutoCloseable {
    private static final List<String> JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final String masterUrl;
    private final Path masterLog;
    private final List<Process> processes = new ArrayList<>();

    private StandaloneCluster(String masterUrl, Path masterLog) {
        this.masterUrl = masterUrl;
        this.masterLog = masterLog;
    }

    /**
     * Starts a Master and {@code workers} Workers of {@code cores} cores and {@code memory} each, under {@code dir}
     * (the Workers' {@code SPARK_HOME} and work directories, and every process's log), and returns once the Master
     * registered them all (or fails after {@code timeoutSeconds}).
     */
    public static StandaloneCluster start(Path dir, int workers, int cores, String memory, long timeoutSeconds)
            throws IOException, InterruptedException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        StandaloneCluster cluster = new StandaloneCluster("spark://127.0.0.1:" + port, dir.resolve("master.log"));
        try {
            cluster.launch(List.of("-Dspark.master.rest.enabled=false", "org.apache.spark.deploy.master.Master",
                    "--host", "127.0.0.1", "--port", String.valueOf(port), "--webui-port", "0"), cluster.masterLog, dir);
            for (int i = 1; i <= workers; i++) {
                Path work = Files.createDirectories(dir.resolve("worker-" + i));
                cluster.launch(List.of("org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--port", "0",
                        "--webui-port", "0", "--cores", String.valueOf(cores), "--memory", memory, "--work-dir",
                        work.toString(), cluster.masterUrl), dir.resolve("worker-" + i + ".log"), dir);
            }
            cluster.awaitWorkers(workers, timeoutSeconds);
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    public String masterUrl() {
        return masterUrl;
    }

    private void launch(List<String> mainAndArgs, Path log, Path dir) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ChildJvm.ADD_OPENS);
        command.addAll(JVM);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.addAll(mainAndArgs);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(LocalCluster.driverEnv(dir)); // a Worker reads SPARK_HOME from its environment
        builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        processes.add(builder.start());
    }

    /** Waits (reading the Master's log, which says so once per Worker) until {@code n} Workers registered. */
    private void awaitWorkers(int n, long timeoutSeconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (registeredWorkers() < n) {
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new AssertionError("a cluster process exited (" + p.exitValue() + "); see " + masterLog);
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(registeredWorkers() + " of " + n + " workers registered after "
                        + timeoutSeconds + " s; see " + masterLog);
            }
            Thread.sleep(200); // polling a log file for a line, not waiting for time to pass
        }
    }

    private long registeredWorkers() throws IOException {
        return Files.exists(masterLog)
                ? Files.readAllLines(masterLog).stream().filter(l -> l.contains("Registering worker")).count() : 0;
    }

    /** Kills the Workers' executors, the Workers and the Master. */
    @Override
    public void close() throws InterruptedException {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
