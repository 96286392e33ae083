package io.sluice.dstream.recovery;

import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.StreamingListener;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import scala.Tuple2;

/**
 * The application the driver kill test crashes: a word count over the replayable generator source, each
 * batch's counts saved as text files, restarted with getOrCreate. It prints its progress on standard output
 * ("submitted t", "output t", "completed t") so that the test can kill it at chosen points.
 *
 * <p>Arguments: checkpoint directory, output directory, batch interval in ms, and how many batches to
 * complete before stopping gracefully (0: run until killed).
 */
public final class WordCountApp {
    static final long RECORDS = 200;
    static final int KEYS = 40;
    static final long SEED = 7;
    static final int PARTITIONS = 2;

    private WordCountApp() {
    }

    public static void main(String[] args) throws Exception {
        String checkpoint = args[0];
        String out = args[1];
        Duration interval = Duration.ofMillis(Long.parseLong(args[2]));
        int stopAfter = Integer.parseInt(args[3]);
        StreamingContext context = StreamingContext.getOrCreate(checkpoint, () -> {
            StreamingContext c = StreamingContext.builder().master("local[2]").appName("word-count-kill-test")
                    .batchInterval(interval)
                    .conf("spark.ui.enabled", "false")
                    .conf("spark.default.parallelism", "2")
                    .conf("spark.driver.host", "127.0.0.1")
                    .conf("spark.driver.bindAddress", "127.0.0.1")
                    .build();
            c.sparkContext().setLogLevel("WARN");
            c.generatorStream(RECORDS, KEYS, SEED, PARTITIONS)
                    .mapToPair(w -> new Tuple2<>(w, 1L))
                    .reduceByKey(Long::sum)
                    .saveAsTextFiles(out + "/counts", "txt");
            return c;
        });
        CountDownLatch done = new CountDownLatch(Math.max(stopAfter, 1));
        context.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchSubmitted(BatchSubmitted event) {
                say("submitted " + event.batchInfo().batchTime().milliseconds());
            }

            @Override
            public void onOutputOperationCompleted(OutputOperationCompleted event) {
                say("output " + event.outputOperationInfo().batchTime().milliseconds());
            }

            @Override
            public void onBatchCompleted(BatchCompleted event) {
                say("completed " + event.batchInfo().batchTime().milliseconds());
                done.countDown();
            }
        });
        say("recovered " + context.recoveredBatch().map(t -> String.valueOf(t.milliseconds())).orElse("none"));
        context.start();
        if (stopAfter > 0) {
            done.await();
            context.stop(true, true);
            say("stopped");
        } else {
            context.awaitTermination();
        }
    }

    private static void say(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
