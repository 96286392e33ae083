package io.sluice.dstream.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.SparkContext$;

/**
 * A standalone Spark cluster on this machine from the test class path: a Master and Workers, each its own JVM,
 * bound to 127.0.0.1 (docs/production.md has the recipe). Executors are the Workers' child processes; the
 * application's driver is the test JVM (see {@link LocalCluster#builder} for its settings), or a spark-submit
 * child JVM. The Workers' {@code SPARK_HOME} is {@code <dir>/spark-home}: its {@code jars} folder is empty unless
 * the test filled it first (executors then take Spark from it, as on a cluster with a Spark distribution).
 * {@link #close} kills every process it started, executors included.
 */
public final class StandaloneCluster implements AutoCloseable {
    private static final List<String> JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    /** Lines quoted from each log by {@link #diagnostics()}. */
    private static final int TAIL = 25;

    private final String masterUrl;
    private final Path dir;
    private final Path masterLog;
    private final List<Process> processes = new ArrayList<>();

    private StandaloneCluster(String masterUrl, Path dir) {
        this.masterUrl = masterUrl;
        this.dir = dir;
        this.masterLog = dir.resolve("master.log");
    }

    /**
     * {@link #start}, for a test whose driver is this JVM: first stops a SparkContext left running here.
     * Surefire runs every test class of a module in one JVM, where earlier classes leave {@code SharedSpark}'s
     * {@code local[2,2]} context running (it starts again when next asked for); a context builder would adopt
     * it, and the job would run in local mode and never reach the cluster.
     */
    public static StandaloneCluster startForThisDriver(Path dir, int workers, int cores, String memory,
            long timeoutSeconds) throws IOException, InterruptedException {
        SparkContext$.MODULE$.getActive().foreach(sc -> {
            sc.stop();
            return null;
        });
        return start(dir, workers, cores, memory, timeoutSeconds);
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
        StandaloneCluster cluster = new StandaloneCluster("spark://127.0.0.1:" + port, dir);
        // The Master's log says when Workers register; a class path's own log4j2.properties (the samples' is at
        // WARN) must not hide it.
        Files.write(dir.resolve("cluster-log4j2.properties"), List.of(
                "rootLogger.level = warn", "rootLogger.appenderRef.stderr.ref = console",
                "appender.console.type = Console", "appender.console.name = console",
                "appender.console.target = SYSTEM_ERR", "appender.console.layout.type = PatternLayout",
                "appender.console.layout.pattern = %d{HH:mm:ss.SSS} %p %c{1}: %m%n",
                "logger.deploy.name = org.apache.spark.deploy", "logger.deploy.level = info"));
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
        command.add("-Dlog4j2.configurationFile=" + dir.resolve("cluster-log4j2.properties"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.addAll(mainAndArgs);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(LocalCluster.driverEnv(dir)); // a Worker reads SPARK_HOME from its environment
        builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        processes.add(builder.start());
    }

    /**
     * Waits until {@code n} Workers registered, reading each Worker's log for the Master's acknowledgement. The
     * Master's own "Registering worker" line is not enough: it is written before the Master checks that it leads,
     * and a Worker that registered while the Master was still in standby is ignored until it retries, seconds
     * later (one CI run submitted its application to a single Worker that way).
     */
    private void awaitWorkers(int n, long timeoutSeconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (registeredWorkers() < n) {
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new AssertionError("a cluster process exited (" + p.exitValue() + ")\n" + diagnostics());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(registeredWorkers() + " of " + n + " workers registered after "
                        + timeoutSeconds + " s\n" + diagnostics());
            }
            Thread.sleep(200); // polling a log file for a line, not waiting for time to pass
        }
    }

    private long registeredWorkers() {
        return workerLogs().stream().filter(log -> count(lines(log), "Successfully registered with master") > 0)
                .count();
    }

    /** The Workers' logs so far (none if the folder cannot be listed: a failure's diagnostics must not throw). */
    private List<Path> workerLogs() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("worker-\\d+\\.log")).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * What a failure message should quote: the Master's record of applications and executors, and the last
     * lines of the Master's and every Worker's log and of every executor's stderr (under the Workers' work
     * directories), with their paths.
     */
    public String diagnostics() {
        StringBuilder out = new StringBuilder("standalone cluster ").append(masterUrl).append(", logs under ")
                .append(dir).append('\n');
        List<String> master = lines(masterLog);
        out.append("Master: ").append(registeredWorkers()).append(" workers registered, ")
                .append(count(master, "Registering app")).append(" applications registered, ")
                .append(count(master, "Launching executor")).append(" executors launched\n");
        List<Path> logs = new ArrayList<>(List.of(masterLog));
        logs.addAll(workerLogs());
        try (Stream<Path> files = Files.walk(dir)) { // <work dir>/<app id>/<executor id>/stderr
            files.filter(f -> f.getFileName().toString().equals("stderr")).sorted().forEach(logs::add);
        } catch (IOException e) {
            out.append("(cannot search ").append(dir).append(": ").append(e).append(")\n");
        }
        for (Path log : logs) {
            List<String> all = lines(log);
            out.append("--- ").append(log).append(" (last ").append(Math.min(TAIL, all.size())).append(" of ")
                    .append(all.size()).append(" lines) ---\n");
            all.subList(Math.max(0, all.size() - TAIL), all.size()).forEach(l -> out.append(l).append('\n'));
        }
        return out.toString();
    }

    private static List<String> lines(Path log) {
        try {
            return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.ISO_8859_1) : List.of("(no such file)");
        } catch (IOException e) {
            return List.of("(unreadable: " + e + ")");
        }
    }

    private static long count(List<String> lines, String text) {
        return lines.stream().filter(l -> l.contains(text)).count();
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
