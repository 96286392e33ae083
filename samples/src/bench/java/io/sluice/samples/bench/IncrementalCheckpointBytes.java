package io.sluice.samples.bench;

import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.StreamingContextBuilder;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.state.StateSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import scala.Tuple2;

/**
 * A step of W6r: W6's state (a mapWithState running count over 1,000,000 keys, loaded as its initial state, 4
 * state partitions) with 10,000 records per batch, so about 1% of the keys change per batch, checkpointed every
 * batch on one state backend. Figure: the bytes a state checkpoint writes, averaged over the batches after the
 * warm-up: on the heap mostly deltas and every tenth a full snapshot, on RocksDB a manifest and the table files
 * not uploaded before (new flushes, and what compactions rewrote).
 */
final class IncrementalCheckpointBytes implements Workload {
    private final String id;
    private final String backend;

    IncrementalCheckpointBytes(String id, String backend) {
        this.id = id;
        this.backend = backend;
    }

    /** W6r: RocksDB's incremental checkpoints against the heap's delta checkpoints, same state and changes. */
    static ScalingWorkload w6r() {
        return new ScalingWorkload("W6r", "bytes per state checkpoint at 1% of 1,000,000 keys changed per batch",
                Figure.lowerIsBetter("MB per state checkpoint; ratio rocksdb / heap", "MB"), 2.0, List.of(
                        new ScalingWorkload.Step("heap", new IncrementalCheckpointBytes("W6r-heap", "heap")),
                        new ScalingWorkload.Step("rocksdb",
                                new IncrementalCheckpointBytes("W6r-rocksdb", "rocksdb"))));
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String description() {
        return "bytes per state checkpoint on " + backend + ", 1% of 1,000,000 keys changed per batch";
    }

    @Override
    public Figure figure() {
        return Figure.lowerIsBetter("MB per state checkpoint", "MB");
    }

    @Override
    public double target() {
        return 2.0;
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        if (side != Side.SLUICE) {
            throw new IllegalArgumentException(id + " measures Sluice against itself");
        }
        Path dir = Files.createTempDirectory("sluice-bench-w6r-");
        List<Long> bytes = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(settings.batches());
        StreamingContextBuilder builder = StreamingContext.builder().batchInterval(settings.interval());
        StandardRun.sparkSettings(settings, id).forEach(builder::conf);
        builder.conf("sluice.state.backend", backend);
        StreamingContext ssc = builder.build();
        try {
            ssc.sparkContext().setLogLevel("WARN");
            ssc.checkpoint(dir.toString());
            ssc.generatorStream(RestartScenario.RECORDS, RestartScenario.KEYS, RestartScenario.SEED,
                            RestartScenario.PARTITIONS)
                    .mapToPair(w -> new Tuple2<>(w, 1L))
                    .mapWithState(StateSpec.function(RestartScenario::count).numPartitions(RestartScenario.PARTITIONS)
                            .initialState(RestartScenario.initialState(ssc.sparkContext())))
                    .name("counts")
                    .checkpoint(settings.interval())
                    .count()
                    .foreachRDD(rdd -> rdd.collect());
            long[] seen = {0};
            ssc.addStreamingListener(new io.sluice.dstream.scheduler.StreamingListener() {
                @Override
                public void onBatchCompleted(BatchCompleted event) {
                    StateOperatorInfo state = event.batchInfo().stateOperatorInfos().get("counts");
                    if (++seen[0] > settings.warmup() && state != null && state.checkpoint() != null) {
                        synchronized (bytes) {
                            bytes.add(state.checkpoint().bytesWritten());
                        }
                    }
                    done.countDown();
                }
            });
            ssc.start();
            if (!done.await(timeout(settings).toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException(id + ": " + settings.batches() + " batches did not complete");
            }
        } finally {
            ssc.stop(true, false);
            CheckpointBytes.deleteRecursively(dir);
        }
        List<Long> counted;
        synchronized (bytes) {
            counted = List.copyOf(bytes);
        }
        if (counted.isEmpty()) {
            throw new IllegalStateException(id + ": no state checkpoint after the warm-up");
        }
        long total = counted.stream().mapToLong(Long::longValue).sum();
        List<Long> sorted = counted.stream().sorted().toList();
        double mean = total / (double) counted.size();
        return new Measurement(mean / 1e6, "-", String.format(Locale.ROOT, "%d checkpoints: mean %.0f, median %d, "
                + "min %d, max %d bytes", counted.size(), mean, sorted.get(sorted.size() / 2), sorted.get(0),
                sorted.get(sorted.size() - 1)));
    }
}
