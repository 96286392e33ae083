package io.sluice.dstream.crash;

import io.sluice.dstream.DStream;
import io.sluice.dstream.Settings;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.source.internal.SourceSettings;
import java.time.Duration;
import java.util.List;
import org.apache.spark.api.java.Optional;
import scala.Tuple2;

/**
 * The driver of {@code ReceiverCrashTest}, run in its own JVM: a reliable receiver with the write-ahead log on,
 * each batch's records saved as text (committed once per batch), a running count per record id
 * (updateStateByKey) whose whole state is saved as text after every batch, recovered with getOrCreate. Prints one line per
 * completed batch, which the test waits on. Args: checkpoint directory, output directory, server port[, batch
 * interval in seconds, default 2].
 */
public final class ReceiverCrashApp {
    private ReceiverCrashApp() {
    }

    public static void main(String[] args) throws Exception {
        String checkpoints = args[0];
        String output = args[1];
        int port = Integer.parseInt(args[2]);
        StreamingContext ssc = StreamingContext.getOrCreate(checkpoints, () -> {
            StreamingContext c = StreamingContext.builder().master("local[2]").appName("receiver-crash")
                    .batchInterval(Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 2))
                    .conf("spark.ui.enabled", "false")
                    .conf("spark.driver.host", "127.0.0.1").conf("spark.driver.bindAddress", "127.0.0.1")
                    .conf(SourceSettings.WRITE_AHEAD_LOG, "true")
                    .conf(Settings.STOP_GRACEFULLY_ON_SHUTDOWN, "true")
                    .conf(Settings.GRACEFUL_STOP_TIMEOUT, "25s") // under Hadoop's 30 s hook limit
                    .build();
            DStream<String> ids = c.receiverStream(new AckingReceiver("127.0.0.1", port)).name("ids");
            ids.saveAsTextFiles(output + "/batch", "txt");
            ids.mapToPair(id -> new Tuple2<>(id, 1L))
                    .updateStateByKey((List<Long> ones, Optional<Long> n) -> Optional.of(n.orElse(0L) + ones.size()))
                    .name("counts")
                    .saveAsTextFiles(output + "/state", "txt");
            ids.count().foreachRDD((rdd, time) -> System.out.println("batch " + time.milliseconds() + " " + rdd.first()));
            return c;
        });
        ssc.start();
        System.out.println("started");
        ssc.awaitTermination();
    }
}
