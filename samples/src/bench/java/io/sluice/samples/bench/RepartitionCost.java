package io.sluice.samples.bench;

import io.sluice.dstream.MapWithStateDStream;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.OutputOperationInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.state.StateSpec;
import io.sluice.testkit.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import scala.Tuple2;

/**
 * What a live re-partitioning of state costs (the figure in docs/performance.md): W2b's pipeline (1,000,000 keys
 * in a mapWithState's state over 4 partitions, 10,000 records per batch, a checkpoint directory) on a manual
 * clock, one batch at a time; after {@code steady} batches the state goes to 8 partitions, after as many more
 * back to 4. Prints every batch's wall-clock time, from the clock's tick to the batch's completion (the batch's
 * own processing delay reads the manual clock, which stands still), and its jobs (a state checkpoint shows as
 * checkpointState).
 * Not a workload of the benchmark: Spark Streaming cannot re-partition state, so there is no ratio to take.
 *
 * <p>{@code java -Xmx2g -cp <samples' test class path> io.sluice.samples.bench.RepartitionCost [steady] [master]}
 */
public final class RepartitionCost {
    private RepartitionCost() {
    }

    public static void main(String[] args) throws Exception {
        int steady = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        String master = args.length > 1 ? args[1] : "local[2]";
        Duration interval = Duration.ofSeconds(3);
        ManualClock clock = new ManualClock(0);
        StreamingContext ssc = StreamingContext.builder().master(master).appName("repartition-cost")
                .batchInterval(interval).clock(clock).conf("spark.ui.enabled", "false")
                .conf("spark.driver.host", "127.0.0.1").conf("spark.driver.bindAddress", "127.0.0.1").build();
        Path checkpoints = Files.createTempDirectory("repartition-cost");
        BlockingQueue<BatchInfo> completed = new LinkedBlockingQueue<>();
        BlockingQueue<Long> completedAt = new LinkedBlockingQueue<>();
        try {
            ssc.sparkContext().setLogLevel("WARN");
            ssc.checkpoint(checkpoints.toString());
            MapWithStateDStream<String, Integer, Long, Long> counts = ssc
                    .generatorStream(10_000, MapWithStateLargeStateWorkload.STATE_KEYS, 42, 4)
                    .mapToPair(w -> new Tuple2<>(w, 1))
                    .mapWithState(StateSpec.function(MapWithStateWorkload::count).numPartitions(4)
                            .initialState(StateInput.initialCounts(ssc.sparkContext(),
                                    MapWithStateLargeStateWorkload.STATE_KEYS)));
            counts.count().foreachRDD(rdd -> BenchOutput.record(rdd.collect()));
            ssc.addStreamingListener(new StreamingListener() {
                @Override
                public void onBatchCompleted(BatchCompleted event) {
                    completedAt.add(System.nanoTime());
                    completed.add(event.batchInfo());
                }
            });
            ssc.start();
            int[] layouts = {4, 8, 4};
            for (int phase = 0; phase < layouts.length; phase++) {
                if (phase > 0) {
                    ssc.repartitionState(counts, layouts[phase]);
                }
                for (int b = 0; b < steady; b++) {
                    long ticked = System.nanoTime();
                    clock.advance(interval);
                    BatchInfo info = completed.poll(10, TimeUnit.MINUTES);
                    if (info == null || info.failed()) {
                        throw new IllegalStateException("batch did not complete: " + info);
                    }
                    long wallMs = (completedAt.take() - ticked) / 1_000_000;
                    String jobs = info.outputOperationInfos().values().stream().map(OutputOperationInfo::name)
                            .collect(Collectors.joining(","));
                    System.out.printf("batch %d partitions %d%s wall %d ms jobs %s%n",
                            info.batchTime().milliseconds() / interval.toMillis(), layouts[phase],
                            b == 0 && phase > 0 ? " MOVE" : "", wallMs, jobs);
                }
            }
        } finally {
            ssc.stop(true, false);
        }
    }
}
