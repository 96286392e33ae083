package io.sluice.dstream.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stateful, windowed job with a socket receiver and the write-ahead log whose checkpoint directory is on a real
 * HDFS (Hadoop's in-process mini cluster: a NameNode and three DataNodes on 127.0.0.1, replication 2), through
 * the faults of production: its driver killed with {@code kill -9} three times while a batch of logged records is
 * in flight (restarted with getOrCreate each time), a DataNode stopped for five batches and started again, and the
 * NameNode down until a batch fails (its state checkpoint cannot be written; the driver's awaitTermination throws
 * and it exits, as an application does), the driver restarted once the NameNode is back. Then a failure-free run
 * gets the same input and {@link ChaosCheck} compares: every record saved once, mapWithState's running totals 1..n
 * per key, the final state, the windowed counts; and every batch time has exactly one output. It prints the
 * timeline (recovery times, what each fault did).
 *
 * <p>As in the chaos run, the feeder pauses before a kill until the batches took every line sent: a socket
 * receiver loses, in any engine, lines it read but had not stored when it died; the write-ahead log keeps what
 * was stored.
 */
class HdfsRecoveryTest {
    private static final long INTERVAL_MS = 1000;
    private static final int KILLS = 3;
    private static final int DATANODE_DOWN_BATCHES = 5;
    /** At most this many batches without a NameNode before one must fail (state is checkpointed every 2). */
    private static final int NAMENODE_DOWN_BATCHES = 4;
    /**
     * Small, quickly starting drivers whose HDFS client gives up on an unreachable NameNode within a second (the
     * default retries for about 20 s per call) and writes the cluster's replication, 2: the client's own default, 3,
     * would ask for every DataNode, and the NameNode would warn on every block while the test has one stopped.
     */
    private static final List<String> JVM = List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Dspark.ui.enabled=false", "-Dspark.hadoop.dfs.replication=2",
            "-Dspark.hadoop.ipc.client.connect.max.retries=1",
            "-Dspark.hadoop.ipc.client.connect.retry.interval=200",
            "-Dspark.hadoop.ipc.client.connect.max.retries.on.timeouts=1");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // the drivers' logs stay for a failure
    static Path dir;

    private static MiniDFSCluster hdfs;

    @BeforeAll
    static void startHdfs() throws IOException {
        Configuration conf = new Configuration();
        conf.set("dfs.namenode.http-address", "127.0.0.1:0");
        conf.set("dfs.datanode.address", "127.0.0.1:0");
        conf.set("dfs.datanode.http.address", "127.0.0.1:0");
        conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
        conf.setInt("dfs.replication", 2);
        quietStart(conf);
        int port;
        try (ServerSocket socket = new ServerSocket(0)) { // fixed, so that the restarted NameNode keeps it
            port = socket.getLocalPort();
        }
        hdfs = new MiniDFSCluster.Builder(conf, dir.resolve("hdfs").toFile()).nameNodePort(port).numDataNodes(3)
                .build();
        hdfs.waitActive();
    }

    /**
     * What the mini cluster's servers would otherwise warn about at every start: their web servers' signing secret
     * (Hadoop reads it from the user's home directory, else makes up one) and the DataNodes' directory scanner
     * throttle (Hadoop's default file sets 1000 ms/s, which the scanner takes as "no throttle", -1).
     */
    private static void quietStart(Configuration conf) throws IOException {
        Path secret = dir.resolve("http-signature-secret");
        Files.writeString(secret, "sluice-hdfs-recovery-test");
        conf.set("hadoop.http.authentication.signature.secret.file", secret.toString());
        conf.setInt("dfs.datanode.directoryscan.throttle.limit.ms.per.sec", -1);
    }

    @AfterAll
    static void stopHdfs() {
        if (hdfs != null) {
            hdfs.shutdown(true);
        }
    }

    @Test
    void killedDriversAStoppedDataNodeAndADownNameNodeLoseAndDoubleNothing() throws Exception {
        List<String> timeline = new ArrayList<>();
        long sent;
        String checkpoint = hdfs.getURI() + "/faults";
        try (ChaosInput.Feeder feeder = new ChaosInput.Feeder(10, 100);
                HdfsRun run = new HdfsRun(checkpoint, dir.resolve("faults"), feeder.port(), JVM, INTERVAL_MS)) {
            long start = System.nanoTime();
            run.start();
            do {
                run.runBatch();
            } while (newestCheckpoint("/faults") < 0);
            System.out.println("HDFS recovery test: logs in " + dir);
            note(timeline, String.format("first start to first checkpoint on HDFS: %.1f s", seconds(start)));

            for (int kill = 1; kill <= KILLS; kill++) {
                run.runBatch();
                long killed = killWithLoggedRecordsInFlight(run, feeder);
                long down = System.nanoTime();
                String recovered = run.start();
                double toRecovered = seconds(down);
                feeder.resume();
                assertTrue(!recovered.equals("none"), "restart " + kill + " found its checkpoint on HDFS");
                assertTrue(run.runBatch(), "the first batch after restart " + kill + "\n" + run.diagnostics());
                note(timeline, String.format("kill %d during batch %d (logged records in flight): restarted from the "
                        + "checkpoint of batch %s in %.1f s, first new batch done after %.1f s", kill, killed,
                        recovered, toRecovered, seconds(down)));
            }

            MiniDFSCluster.DataNodeProperties dataNode = hdfs.stopDataNode(0);
            List<Boolean> degraded = new ArrayList<>();
            for (int i = 0; i < DATANODE_DOWN_BATCHES; i++) {
                degraded.add(run.runBatch());
            }
            hdfs.restartDataNode(dataNode, true);
            assertEquals(List.of(true, true, true, true, true), degraded, "batches with a DataNode down\n"
                    + run.diagnostics());
            note(timeline, "DataNode down for " + DATANODE_DOWN_BATCHES + " batches: every batch succeeded; the "
                    + "driver logged " + warnings(run, "DataNode", "datanode") + " warnings about it");

            long before = newestCheckpoint("/faults");
            feeder.pause(); // a receiver whose log cannot be written stops (see docs/production.md)
            hdfs.shutdownNameNode(0);
            long outage = System.nanoTime();
            String failure = run.runUntilTerminated(NAMENODE_DOWN_BATCHES);
            assertTrue(failure.matches(".*batch \\d+ ms.*"), "the error names the batch: " + failure);
            long warned = warnings(run, "Could not write the checkpoint");
            hdfs.restartNameNode(0, true);
            // An administrator's "hdfs dfsadmin -safemode leave": the restarted NameNode would otherwise wait
            // for block reports of a DataNode this test restarted earlier
            hdfs.getNameNodeRpc().setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_LEAVE, false);
            double outageSeconds = seconds(outage);
            long back = System.nanoTime();
            String recovered = run.start();
            feeder.resume();
            assertTrue(run.runBatch(), "the first batch once the NameNode is back\n" + run.diagnostics());
            assertEquals(before, Long.parseLong(recovered), "restarted from the last checkpoint before the outage");
            note(timeline, String.format("NameNode down %.1f s: the driver logged %d 'Could not write the checkpoint' "
                    + "warnings and ended with '%s'; restarted once it was back: from the checkpoint of batch %s, "
                    + "first new batch done after %.1f s", outageSeconds, warned, failure, recovered, seconds(back)));

            sent = feeder.finish();
            finish(run, sent);
        }

        String clean = hdfs.getURI() + "/clean";
        try (ChaosInput.Feeder feeder = new ChaosInput.Feeder(100, 100); // all of it within a few batches
                HdfsRun run = new HdfsRun(clean, dir.resolve("clean"), feeder.port(), JVM, INTERVAL_MS)) {
            feeder.limit(sent);
            run.start();
            finish(run, sent);
            assertEquals(List.of(), run.failedBatches(), "the failure-free run");
        }
        assertEquals(List.of(), ChaosCheck.compare(dir.resolve("faults").resolve("out"),
                dir.resolve("clean").resolve("out"), sent, 0), sent + " lines; timeline " + timeline);
        assertOneOutputPerBatch(dir.resolve("faults").resolve("out"));
    }

    /**
     * Pauses the input and runs batches until one takes the last lines sent, and kills the driver as soon as that
     * batch is submitted: its records are in the write-ahead log on HDFS and nowhere else. Returns its time.
     */
    private static long killWithLoggedRecordsInFlight(HdfsRun run, ChaosInput.Feeder feeder) throws Exception {
        for (int attempt = 0; attempt < 10; attempt++) {
            long sent = feeder.pause();
            while (run.taken() < sent) {
                long t = run.advance();
                run.awaitSubmitted(t);
                if (run.taken() == sent) {
                    run.kill();
                    feeder.drop();
                    return t;
                }
                run.awaitCompleted(t);
            }
            feeder.resume(); // every line was taken before the pause: let more come
            run.runBatch();
        }
        throw new AssertionError("no batch took the last lines sent in 10 attempts\n" + run.diagnostics());
    }

    /** Runs until the batches took all {@code lines} of the input and every window let them go, and stops. */
    private static void finish(HdfsRun run, long lines) throws Exception {
        for (int batch = 0; run.taken() < lines; batch++) {
            assertTrue(batch < 60, run.taken() + " of " + lines + " lines taken\n" + run.diagnostics());
            run.runBatch();
        }
        for (int i = 0; i <= ChaosApp.WINDOW_BATCHES; i++) {
            run.runBatch();
        }
        run.stop();
    }

    /** The batch time of the newest checkpoint in {@code path}'s progress directory on HDFS, or -1. */
    private static long newestCheckpoint(String path) throws IOException {
        FileSystem fs = hdfs.getFileSystem();
        org.apache.hadoop.fs.Path progress = new org.apache.hadoop.fs.Path(path + "/progress");
        long newest = -1;
        if (fs.exists(progress)) {
            for (FileStatus f : fs.listStatus(progress)) {
                String name = f.getPath().getName();
                if (name.matches("checkpoint-\\d+")) {
                    newest = Math.max(newest, Long.parseLong(name.substring("checkpoint-".length())));
                }
            }
        }
        return newest;
    }

    private static long warnings(HdfsRun run, String... texts) throws IOException {
        return run.log().stream().filter(l -> l.contains(" WARN ") || l.contains(" ERROR "))
                .filter(l -> List.of(texts).stream().anyMatch(l::contains)).count();
    }

    /** Every batch time from the first to the last has exactly one committed records directory. */
    private static void assertOneOutputPerBatch(Path out) throws IOException {
        List<Long> times = ChaosCheck.batchTimes(out, "records-").stream().sorted().toList();
        assertEquals(INTERVAL_MS, times.get(0), "the first batch's output: " + times);
        for (int i = 1; i < times.size(); i++) {
            assertEquals(times.get(i - 1) + INTERVAL_MS, times.get(i), "batches without a gap: " + times);
        }
    }

    private static void note(List<String> timeline, String line) {
        timeline.add(line);
        System.out.println("HDFS recovery test: " + line);
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
