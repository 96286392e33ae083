package io.sluice.dstream.recovery;

import io.sluice.dstream.testing.LocalCluster;
import io.sluice.dstream.DStream;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.Settings;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.state.StateSpec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import scala.Tuple2;

/**
 * The driver the chaos run kills: on a multi-process {@code local-cluster} (two executor JVMs), a socket source
 * with the receiver write-ahead log on and a file source, unioned; every record saved as text, a running count
 * per key with mapWithState (its emitted totals and its state after each batch saved as text) and a windowed
 * count per key saved as text; restarted with getOrCreate. On the system clock.
 *
 * <p>It prints "recovered t|none", "executors 2", then per batch "submitted t socket=n files=m", "output t" and
 * "completed t socket=n files=m delay=ms processing=ms failed=b"; it stops gracefully when its standard input
 * says "stop", and prints "stopped".
 *
 * <p>Arguments: checkpoint directory, output directory, input directory (files), feeder port, batch interval ms.
 */
public final class ChaosApp {
    static final int WINDOW_BATCHES = 3;
    static final int PARTITIONS = 4;
    static final String SOCKET = "socket";
    static final String FILES = "files";

    private ChaosApp() {
    }

    public static void main(String[] args) throws Exception {
        String checkpoint = args[0];
        String out = args[1];
        String input = args[2];
        int port = Integer.parseInt(args[3]);
        Duration interval = Duration.ofMillis(Long.parseLong(args[4]));
        StreamingContext context = StreamingContext.getOrCreate(checkpoint, () -> {
            StreamingContext c = LocalCluster.builder("local-cluster[2,1,512]", "-XX:+UseSerialGC").appName("chaos")
                    .batchInterval(interval)
                    .conf("spark.default.parallelism", String.valueOf(PARTITIONS))
                    .conf(SourceSettings.WRITE_AHEAD_LOG, "true")
                    .conf(Settings.GRACEFUL_STOP_TIMEOUT, "300s")
                    .build();
            c.sparkContext().setLogLevel("WARN");
            DStream<String> socket = c.socketTextStream("127.0.0.1", port).name(SOCKET);
            DStream<String> files = c.textFileStream(input).name(FILES);
            DStream<String> records = socket.union(files);
            records.saveAsTextFiles(out + "/records", "txt");
            PairDStream<String, Long> ones = records.mapToPair(r -> new Tuple2<>(ChaosInput.key(r), 1L));
            var totals = ones.mapWithState(StateSpec.function(WordCountApp::runningCount).numPartitions(PARTITIONS))
                    .name("totals")
                    .checkpoint(interval.multipliedBy(2));
            totals.saveAsTextFiles(out + "/running", "txt");
            totals.stateSnapshots().saveAsTextFiles(out + "/state", "txt");
            ones.reduceByKeyAndWindow(Long::sum, interval.multipliedBy(WINDOW_BATCHES), interval)
                    .saveAsTextFiles(out + "/window", "txt");
            return c;
        });
        say("recovered " + context.recoveredBatch().map(t -> String.valueOf(t.milliseconds())).orElse("none"));
        ClusterWordCountApp.awaitExecutors(context, 2);
        say("executors 2");
        context.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchSubmitted(BatchSubmitted event) {
                BatchInfo info = event.batchInfo();
                say("submitted " + info.batchTime().milliseconds() + counts(info));
            }

            @Override
            public void onOutputOperationCompleted(OutputOperationCompleted event) {
                say("output " + event.outputOperationInfo().batchTime().milliseconds());
            }

            @Override
            public void onBatchCompleted(BatchCompleted event) {
                BatchInfo info = event.batchInfo();
                say("completed " + info.batchTime().milliseconds() + counts(info) + " delay=" + info.totalDelay()
                        + " processing=" + info.processingDelay() + " failed=" + info.failed());
            }
        });
        context.start();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String command;
        while ((command = commands.readLine()) != null && !command.equals("stop")) {
            say("unknown command " + command);
        }
        context.stop(true, true);
        say("stopped");
    }

    private static String counts(BatchInfo info) {
        Map<String, BatchReport> reports = info.inputReports();
        return " " + SOCKET + "=" + reports.getOrDefault(SOCKET, BatchReport.NONE).records()
                + " " + FILES + "=" + reports.getOrDefault(FILES, BatchReport.NONE).records();
    }

    private static void say(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
