package io.sluice.samples.soak;

import io.sluice.dstream.DStream;
import io.sluice.dstream.MapWithStateDStream;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.StreamingContext;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.api.java.Optional;
import scala.Tuple2;

/**
 * The soak's job, the same in the long run ({@link Soak}) and in CI ({@code SoakTest}): lines of one word from a
 * socket source and a file source, counted per word in {@code mapWithState} state and over a sliding window
 * (reduced incrementally, with an inverse function, so its lineage is cut into the checkpoint directory). The
 * words come from a fixed set of {@link #KEYS}, so state, window and checkpoints have a fixed size: anything that
 * grows over the batches is held by the engine, not by the job.
 */
public final class SoakPipeline {
    public static final Duration INTERVAL = Duration.ofMillis(50);
    public static final Duration WINDOW = Duration.ofSeconds(1);
    public static final Duration SLIDE = Duration.ofMillis(250);
    /**
     * How often the window's lineage is cut: 8 slides (Spark's guide says 5 to 10). A stream remembers twice its
     * checkpoint interval (as in Spark Streaming), so the default of 10 s would keep 400 batches of 50 ms.
     */
    public static final Duration WINDOW_CHECKPOINT = Duration.ofSeconds(2);
    public static final int KEYS = 1000;

    private final AtomicLong counted = new AtomicLong();
    private final AtomicLong windowed = new AtomicLong();

    private SoakPipeline() {
    }

    /** The word of line {@code i} a feeder sends. */
    public static String word(long i) {
        return "w" + (i % KEYS);
    }

    /** Builds the job on {@code ctx} (with its checkpoint directory set) over the server at 127.0.0.1:port. */
    public static SoakPipeline build(StreamingContext ctx, int port, String directory) {
        SoakPipeline p = new SoakPipeline();
        DStream<String> lines = ctx.socketTextStream("127.0.0.1", port).union(ctx.textFileStream(directory));
        PairDStream<String, Long> ones = lines.mapToPair(w -> new Tuple2<>(w, 1L));
        MapWithStateDStream<String, Long, Long, Long> counts =
                ones.mapWithState(StateSpec.function(SoakPipeline::count)).name("counts");
        counts.stateSnapshots().foreachRDD(rdd -> {
            p.counted.set(rdd.values().fold(0L, Long::sum));
        });
        PairDStream<String, Long> window = ones.reduceByKeyAndWindow(Long::sum, (a, b) -> a - b, WINDOW, SLIDE);
        window.checkpoint(WINDOW_CHECKPOINT).foreachRDD(rdd -> {
            p.windowed.set(rdd.values().fold(0L, Long::sum));
        });
        return p;
    }

    private static Long count(String word, Optional<Long> one, State<Long> state) {
        long n = (state.exists() ? state.get() : 0L) + one.orElse(0L);
        state.update(n);
        return n;
    }

    /** Lines counted in state so far (the sum of every word's count after the latest batch). */
    public long counted() {
        return counted.get();
    }

    /** Lines in the latest window. */
    public long windowed() {
        return windowed.get();
    }
}
