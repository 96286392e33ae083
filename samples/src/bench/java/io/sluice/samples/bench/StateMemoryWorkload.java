package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import io.sluice.state.StateSpec;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.BlockStatus;
import org.apache.spark.streaming.api.java.JavaDStream;
import scala.Option;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * State memory: bytes per key of 1,000,000 String → Long keys in mapWithState, on both sides measured the same
 * way: the in-memory size the block manager records for the cached state RDD (its SizeEstimator estimate of
 * the deserialized partitions; both engines cache their state RDDs deserialized), the largest such RDD after
 * loading the keys through initialState and running empty batches, divided by the number of keys.
 */
final class StateMemoryWorkload implements Workload {
    private static final AtomicLong LARGEST_CACHED = new AtomicLong();

    @Override
    public String id() {
        return "W2m";
    }

    @Override
    public String description() {
        return "state memory of 1,000,000 String→Long keys (cached state RDD size)";
    }

    @Override
    public Figure figure() {
        return Figure.lowerIsBetter("state memory", "bytes/key");
    }

    @Override
    public double target() {
        return 0.5;
    }

    /**
     * The largest in-memory size of one RDD's cached partitions, read from this JVM's block manager (local mode:
     * every block is here), which sizes them alike on both sides. Not Spark's storage info: Sluice caches its
     * state in local mode without reporting it to the master (decisions/0019-local-cache.md).
     */
    private static void recordCachedSize() {
        BlockManager blocks = SparkEnv.get().blockManager();
        Map<Integer, Long> byRdd = new HashMap<>();
        for (BlockId id : CollectionConverters.asJava(blocks.getMatchingBlockIds(BlockId::isRDD))) {
            Option<BlockStatus> status = blocks.getStatus(id);
            if (status.isDefined()) {
                byRdd.merge(id.asRDDId().get().rddId(), status.get().memSize(), Long::sum);
            }
        }
        byRdd.values().forEach(size -> LARGEST_CACHED.accumulateAndGet(size, Math::max));
    }

    /** Three empty batches over the loaded state; the figure comes from the cached state, not from times. */
    private static final class Load implements BatchWorkload {
        @Override
        public String id() {
            return "W2m";
        }

        @Override
        public String description() {
            return "load";
        }

        @Override
        public Figure figure() {
            return Figure.MS_PER_BATCH;
        }

        @Override
        public double target() {
            return 1;
        }

        @Override
        public long recordsPerBatch() {
            return 0;
        }

        @Override
        public int keys() {
            return MapWithStateLargeStateWorkload.STATE_KEYS;
        }

        @Override
        public boolean needsCheckpointDirectory() {
            return true;
        }

        @Override
        public void sluice(DStream<String> input) {
            JavaSparkContext sc = input.context().sparkContext();
            input.mapToPair(w -> new Tuple2<>(w, 1))
                    .mapWithState(StateSpec.function(MapWithStateWorkload::count).numPartitions(4)
                            .initialState(StateInput.initialCounts(sc, MapWithStateLargeStateWorkload.STATE_KEYS)))
                    .count()
                    .foreachRDD(rdd -> {
                        BenchOutput.record(rdd.collect());
                        recordCachedSize();
                    });
        }

        @Override
        public void sparkStreaming(JavaDStream<String> input) {
            JavaSparkContext sc = JavaSparkContext.fromSparkContext(input.context().sparkContext());
            input.mapToPair(w -> new Tuple2<>(w, 1))
                    .mapWithState(org.apache.spark.streaming.StateSpec.function(MapWithStateWorkload::countOnSpark)
                            .numPartitions(4)
                            .initialState(StateInput.initialCounts(sc, MapWithStateLargeStateWorkload.STATE_KEYS)))
                    .count()
                    .foreachRDD(rdd -> {
                        BenchOutput.record(rdd.collect());
                        recordCachedSize();
                    });
        }
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        BenchSettings short3 = new BenchSettings(settings.master(), settings.defaultParallelism(),
                settings.inputPartitions(), 3, 1, Duration.ofMillis(Math.max(settings.interval().toMillis(), 3000)));
        LARGEST_CACHED.set(0);
        Measurement load = StandardRun.run(new Load(), side, short3);
        double perKey = LARGEST_CACHED.get() / (double) MapWithStateLargeStateWorkload.STATE_KEYS;
        return new Measurement(perKey, load.outputDigest(), String.format(Locale.ROOT,
                "largest cached state RDD %,d bytes for %,d keys", LARGEST_CACHED.get(),
                MapWithStateLargeStateWorkload.STATE_KEYS));
    }
}
