package io.sluice.dstream;

import io.sluice.dstream.testing.LocalCluster;
import io.sluice.dstream.recovery.ClusterWordCountApp;
import io.sluice.dstream.recovery.WordCountApp;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.testing.LineServer;
import io.sluice.state.StateSpec;
import io.sluice.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import scala.Tuple2;

/**
 * The driver of {@link AuthenticatedClusterTest}, in its own JVM: a {@code local-cluster} (two executor JVMs)
 * with {@code spark.authenticate}, a secret, RPC encryption and I/O encryption on; a socket receiver with the
 * write-ahead log, a running count (mapWithState) and a two-batch window. On a manual clock: for each batch
 * it sends that batch's lines, waits until the receiver stored them, advances the clock and prints
 * "batch b counts=... state=... window=... failed=...". Argument: the checkpoint directory.
 */
public final class AuthenticatedClusterApp {
    static final int BATCHES = 4;
    static final Duration INTERVAL = Duration.ofSeconds(1);

    private AuthenticatedClusterApp() {
    }

    /** Batch b's lines: "a" b times, "b" twice, "c" in the first batch only. */
    static List<String> lines(int batch) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < batch; i++) {
            lines.add("a");
        }
        lines.add("b");
        lines.add("b");
        if (batch == 1) {
            lines.add("c");
        }
        return lines;
    }

    public static void main(String[] args) throws Exception {
        ManualClock clock = new ManualClock();
        Map<String, Map<String, Long>> results = new ConcurrentHashMap<>();
        Semaphore completed = new Semaphore(0);
        try (LineServer server = new LineServer()) {
            StreamingContext c = LocalCluster.builder("local-cluster[2,1,1024]", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
                    .appName("authenticated")
                    .batchInterval(INTERVAL)
                    .clock(clock)
                    .conf("spark.authenticate", "true")
                    .conf("spark.authenticate.secret", "sluice-test-secret")
                    .conf("spark.network.crypto.enabled", "true")
                    .conf("spark.io.encryption.enabled", "true")
                    .conf("spark.default.parallelism", "2")
                    .conf(SourceSettings.WRITE_AHEAD_LOG, "true")
                    .build();
            c.sparkContext().setLogLevel("WARN");
            c.checkpoint(args[0]);
            DStream<String> words = c.socketTextStream("127.0.0.1", server.port());
            PairDStream<String, Long> ones = words.mapToPair(w -> new Tuple2<>(w, 1L));
            ones.reduceByKey(Long::sum).foreachRDD(rdd -> results.put("counts", new TreeMap<>(rdd.collectAsMap())));
            ones.mapWithState(StateSpec.function(WordCountApp::runningCount)).stateSnapshots()
                    .foreachRDD(rdd -> results.put("state", new TreeMap<>(rdd.collectAsMap())));
            ones.reduceByKeyAndWindow(Long::sum, INTERVAL.multipliedBy(2), INTERVAL)
                    .foreachRDD(rdd -> results.put("window", new TreeMap<>(rdd.collectAsMap())));
            List<String> failed = new ArrayList<>();
            c.addStreamingListener(new StreamingListener() {
                @Override
                public void onBatchCompleted(BatchCompleted event) {
                    synchronized (failed) {
                        failed.add(String.valueOf(event.batchInfo().failed()));
                    }
                    completed.release();
                }
            });
            ClusterWordCountApp.awaitExecutors(c, 2);
            c.start();
            LineServer.Connection connection = server.accept();
            long sent = 0;
            for (int b = 1; b <= BATCHES; b++) {
                List<String> lines = lines(b);
                connection.lines(lines.toArray(String[]::new));
                sent += lines.size();
                SourcesTesting.awaitReceived(words, sent, 0);
                clock.advance(INTERVAL);
                if (!completed.tryAcquire(120, TimeUnit.SECONDS)) {
                    throw new AssertionError("batch " + b + " did not complete within 120 s");
                }
                synchronized (failed) {
                    System.out.println("batch " + b + " counts=" + results.remove("counts") + " state="
                            + results.remove("state") + " window=" + results.remove("window") + " failed="
                            + failed.get(failed.size() - 1));
                }
            }
            c.stop(true, false);
            System.out.println("done");
        }
    }
}
