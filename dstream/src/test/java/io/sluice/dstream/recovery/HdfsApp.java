package io.sluice.dstream.recovery;

import io.sluice.dstream.DStream;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.Settings;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.state.StateSpec;
import io.sluice.testkit.ManualClock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import scala.Tuple2;

/**
 * The driver the HDFS recovery test kills: {@link ChaosApp}'s pipeline (a socket receiver with the write-ahead
 * log, every record saved, a running count per key with mapWithState, its emitted totals and state saved, a
 * windowed count per key saved) on {@code local[2]}, with its checkpoint directory (and so the write-ahead log
 * and the state checkpoint files) on HDFS; restarted with getOrCreate.
 *
 * <p>Batches run when the test says: each line "batch" on standard input moves the manual clock one interval
 * ("advanced t"); "stop" stops gracefully ("stopped"). When awaitTermination throws (a failed batch), it prints
 * "terminated message" and exits with 1, as an application whose main thread waits there. It prints
 * "recovered t|none", then per batch "submitted t socket=n" and "completed t socket=n failed=b", and
 * "receiver kind: message" for receiver events.
 *
 * <p>Arguments: checkpoint directory URI, output directory, feeder port, batch interval ms.
 */
public final class HdfsApp {
    private HdfsApp() {
    }

    public static void main(String[] args) throws Exception {
        String checkpoint = args[0];
        String out = args[1];
        int port = Integer.parseInt(args[2]);
        Duration interval = Duration.ofMillis(Long.parseLong(args[3]));
        ManualClock clock = new ManualClock();
        StreamingContext context = StreamingContext.getOrCreate(checkpoint, () -> {
            StreamingContext c = StreamingContext.builder().master("local[2]").appName("hdfs-recovery")
                    .batchInterval(interval)
                    .clock(clock)
                    .conf("spark.ui.enabled", "false")
                    .conf("spark.default.parallelism", "2")
                    .conf("spark.driver.host", "127.0.0.1")
                    .conf("spark.driver.bindAddress", "127.0.0.1")
                    .conf(SourceSettings.WRITE_AHEAD_LOG, "true")
                    .conf(Settings.GRACEFUL_STOP_TIMEOUT, "120s")
                    .build();
            c.sparkContext().setLogLevel("WARN");
            DStream<String> records = c.socketTextStream("127.0.0.1", port).name(ChaosApp.SOCKET);
            records.saveAsTextFiles(out + "/records", "txt");
            PairDStream<String, Long> ones = records.mapToPair(r -> new Tuple2<>(ChaosInput.key(r), 1L));
            var totals = ones.mapWithState(StateSpec.function(WordCountApp::runningCount).numPartitions(2))
                    .name("totals")
                    .checkpoint(interval.multipliedBy(2));
            totals.saveAsTextFiles(out + "/running", "txt");
            totals.stateSnapshots().saveAsTextFiles(out + "/state", "txt");
            ones.reduceByKeyAndWindow(Long::sum, interval.multipliedBy(ChaosApp.WINDOW_BATCHES), interval)
                    .saveAsTextFiles(out + "/window", "txt");
            return c;
        });
        context.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchSubmitted(BatchSubmitted event) {
                say("submitted " + event.batchInfo().batchTime().milliseconds() + socket(event.batchInfo()));
            }

            @Override
            public void onReceiverEvent(ReceiverEvent event) {
                say("receiver " + event.kind() + ": " + event.message().replace('\n', ' '));
            }

            @Override
            public void onBatchCompleted(BatchCompleted event) {
                BatchInfo info = event.batchInfo();
                say("completed " + info.batchTime().milliseconds() + socket(info) + " failed=" + info.failed());
            }
        });
        say("recovered " + context.recoveredBatch().map(t -> String.valueOf(t.milliseconds())).orElse("none"));
        clock.setTime(context.recoveredBatch().map(t -> t.milliseconds() + interval.toMillis()).orElse(0L));
        context.start();
        Thread watcher = new Thread(() -> { // as an application's main thread in awaitTermination
            try {
                context.awaitTermination();
            } catch (Exception e) {
                say("terminated " + String.valueOf(e.getMessage()).replace('\n', ' '));
                System.exit(1);
            }
        }, "await-termination");
        watcher.setDaemon(true);
        watcher.start();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String command;
        while ((command = commands.readLine()) != null && !command.equals("stop")) {
            if (command.equals("batch")) {
                clock.advance(interval);
                say("advanced " + clock.millis());
            } else {
                say("unknown command " + command);
            }
        }
        context.stop(true, true);
        say("stopped");
    }

    private static String socket(BatchInfo info) {
        return " socket=" + info.inputReports().getOrDefault(ChaosApp.SOCKET, BatchReport.NONE).records();
    }

    private static void say(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
