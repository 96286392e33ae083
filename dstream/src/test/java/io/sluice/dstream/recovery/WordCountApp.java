package io.sluice.dstream.recovery;

import io.sluice.testkit.ManualClock;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.Settings;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.testing.StateBackends;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import org.apache.spark.api.java.Optional;
import io.sluice.dstream.scheduler.StreamingListener;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import scala.Tuple2;

/**
 * The application the driver kill test crashes: a word count over the replayable generator source, each
 * batch's counts and the running totals (mapWithState, whose state snapshot is saved after every batch)
 * saved as text files, restarted with getOrCreate. It prints its progress on standard output
 * ("submitted t", "output t", "completed t") so that the test can kill it at chosen points.
 *
 * <p>Time is virtual and runs as fast as the batches: the clock moves to the next batch as soon as one
 * completes (a fast-forward replay), so a test crashes many batches' worth of driver in seconds. A restart
 * moves the clock {@code jump} intervals past the recovered checkpoint's next batch, to make the driver miss
 * batches "while it was down".
 *
 * <p>Arguments: checkpoint directory, output directory, how many batches to complete before stopping
 * gracefully (0: run until killed), jump.
 */
public final class WordCountApp {
    static final long RECORDS = 200;
    static final int KEYS = 40;
    static final long SEED = 7;
    static final int PARTITIONS = 2;
    static final Duration INTERVAL = Duration.ofSeconds(1);
    /** Often, so that crashes land between state checkpoints, on them, and on delta chains. */
    static final int STATE_CHECKPOINT_BATCHES = 2;

    private WordCountApp() {
    }

    public static void main(String[] args) throws Exception {
        String checkpoint = args[0];
        String out = args[1];
        int stopAfter = Integer.parseInt(args[2]);
        int jump = Integer.parseInt(args[3]);
        ManualClock clock = new ManualClock();
        StreamingContext context = StreamingContext.getOrCreate(checkpoint, () -> {
            StreamingContext c = StreamingContext.builder().master("local[2]").appName("word-count-kill-test")
                    .batchInterval(INTERVAL)
                    .clock(clock)
                    .conf("spark.ui.enabled", "false")
                    .conf("spark.default.parallelism", "2")
                    .conf("spark.driver.host", "127.0.0.1")
                    .conf("spark.driver.bindAddress", "127.0.0.1")
                    // The last run stops gracefully while catching up on the batches missed while it was down.
                    .conf(Settings.GRACEFUL_STOP_TIMEOUT, "120s")
                    .conf(StateBackends.SETTING, StateBackends.ofThisJvm())
                    .build();
            c.sparkContext().setLogLevel("WARN");
            PairDStream<String, Long> ones = c.generatorStream(RECORDS, KEYS, SEED, PARTITIONS)
                    .mapToPair(w -> new Tuple2<>(w, 1L));
            ones.reduceByKey(Long::sum).saveAsTextFiles(out + "/counts", "txt");
            ones.mapWithState(StateSpec.function(WordCountApp::runningCount).numPartitions(PARTITIONS))
                    .name("totals")
                    .checkpoint(INTERVAL.multipliedBy(STATE_CHECKPOINT_BATCHES))
                    .stateSnapshots()
                    .saveAsTextFiles(out + "/state", "txt");
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
                long t = event.batchInfo().batchTime().milliseconds();
                say("completed " + t);
                if (clock.millis() < t + INTERVAL.toMillis()) {
                    clock.setTime(t + INTERVAL.toMillis());
                }
                done.countDown();
            }
        });
        say("recovered " + context.recoveredBatch().map(t -> String.valueOf(t.milliseconds())).orElse("none"));
        long resume = context.recoveredBatch().map(t -> t.milliseconds() + INTERVAL.toMillis()).orElse(0L);
        clock.setTime(resume + jump * INTERVAL.toMillis());
        context.start();
        clock.advance(INTERVAL);
        if (stopAfter > 0) {
            done.await();
            context.stop(true, true);
            say("stopped");
        } else {
            context.awaitTermination();
        }
    }

    public static Tuple2<String, Long> runningCount(String word, Optional<Long> one, State<Long> state) {
        long total = state.getOption().orElse(0L) + one.orElse(0L);
        state.update(total);
        return new Tuple2<>(word, total);
    }

    private static void say(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
