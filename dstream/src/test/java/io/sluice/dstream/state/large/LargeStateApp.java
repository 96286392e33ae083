package io.sluice.dstream.state.large;

import io.sluice.dstream.StreamingContext;

import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.testing.StateBackends;
import io.sluice.testkit.ManualClock;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CountDownLatch;
import java.util.stream.LongStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import scala.Tuple2;

/**
 * A mapWithState running count that fills {@code keys} distinct keys, {@code perBatch} new ones a batch, then
 * counts the first keys once more, {@code perBatch} of them a batch, in the batches after: run by {@link StateBeyondMemoryTest} in a JVM of a small heap.
 * Prints, per batch, its time, the keys in state, the state's bytes on the heap and on disk, the heap in use after
 * a collection and the wall-clock time since the batch before; then "done" with the sum of the emitted counts, or
 * "failed: " and the error.
 * Arguments: backend, keys, new keys per batch, batches over existing keys, Spark's local directory, state
 * partitions. Spark settings come from {@code spark.*} system properties too.
 */
public final class LargeStateApp {
    static final Duration INTERVAL = Duration.ofSeconds(1);
    /** The input partitions of each batch. */
    static final int SLICES = 4;

    private LargeStateApp() {
    }

    public static void main(String[] args) throws Exception {
        String backend = args[0];
        long keys = Long.parseLong(args[1]);
        long perBatch = Long.parseLong(args[2]);
        int revisits = Integer.parseInt(args[3]);
        int partitions = Integer.parseInt(args[5]);
        int filling = (int) ((keys + perBatch - 1) / perBatch);
        ManualClock clock = new ManualClock();
        StreamingContext context = StreamingContext.builder().master("local[2]").appName("large-state")
                .batchInterval(INTERVAL).clock(clock)
                .conf("spark.ui.enabled", "false")
                .conf("spark.default.parallelism", String.valueOf(partitions))
                .conf("spark.driver.host", "127.0.0.1")
                .conf("spark.driver.bindAddress", "127.0.0.1")
                .conf(StateBackends.SETTING, backend)
                .conf("spark.local.dir", args[4])
                .build();
        context.sparkContext().setLogLevel("ERROR");
        Queue<JavaRDD<String>> batches = new ArrayDeque<>();
        for (int b = 0; b < filling + revisits; b++) {
            long from = (b < filling ? b : b - filling) * perBatch; // then the first keys again, a batch's worth each
            long to = Math.min(keys, from + perBatch);
            batches.add(words(context.sparkContext(), from, to));
        }
        long[] emittedSum = new long[1];
        context.queueStream(batches)
                .mapToPair(w -> new Tuple2<>(w, 1L))
                .mapWithState(StateSpec.function(LargeStateApp::count).numPartitions(partitions)).name("fill")
                .foreachRDD(rdd -> {
                    long sum = rdd.fold(0L, Long::sum);
                    synchronized (emittedSum) {
                        emittedSum[0] += sum;
                    }
                });
        CountDownLatch done = new CountDownLatch(filling + revisits);
        long[] last = {System.nanoTime()};
        context.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(StreamingListener.BatchCompleted event) {
                StateOperatorInfo s = event.batchInfo().stateOperatorInfos().get("fill");
                long now = System.nanoTime();
                long millis = (now - last[0]) / 1_000_000;
                last[0] = now;
                System.gc();
                long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                say("batch " + event.batchInfo().batchTime().milliseconds() + " keys=" + (s == null ? -1 : s.numKeys())
                        + " bytes=" + (s == null ? -1 : s.estimatedBytes())
                        + " disk=" + (s == null ? -1 : s.diskBytes())
                        + " heap=" + heap + " millis=" + millis
                        + " failed=" + event.batchInfo().failed());
                done.countDown();
                if (done.getCount() > 0) { // no batch after the last: the stop would run it
                    clock.advance(INTERVAL);
                }
            }
        });
        context.start();
        clock.advance(INTERVAL);
        Thread waiter = new Thread(() -> {
            try {
                done.await();
                context.stop(true, true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        waiter.setDaemon(true);
        waiter.start();
        try {
            context.awaitTermination();
        } catch (Exception e) {
            say("failed: " + e.getMessage());
            System.exit(3);
        }
        synchronized (emittedSum) {
            say("done emitted=" + emittedSum[0] + " max=" + Runtime.getRuntime().maxMemory());
        }
        System.exit(0);
    }

    /** The words "k" + i for i in [from, to), made inside the tasks (the driver holds no record). */
    private static JavaRDD<String> words(JavaSparkContext sc, long from, long to) {
        return sc.parallelize(List.of(0, 1, 2, 3), SLICES).flatMap(p -> {
            long step = (to - from + SLICES - 1) / SLICES;
            long start = from + p * step;
            Iterator<String> it = LongStream.range(start, Math.min(to, start + step)).mapToObj(i -> "k" + i).iterator();
            return it;
        });
    }

    static Long count(String key, Optional<Long> one, State<Long> state) {
        long total = state.getOption().orElse(0L) + one.orElse(0L);
        state.update(total);
        return total;
    }

    private static void say(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
