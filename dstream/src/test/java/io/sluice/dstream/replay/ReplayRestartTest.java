package io.sluice.dstream.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.Clock;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.testkit.SharedSpark;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay with checkpointing, stopped after five batches (runBatches, then a stop), continues through
 * getOrCreate from the sixth batch to the end of the recording; the two runs' outputs together are those of an
 * uninterrupted replay, state and timeouts included.
 */
class ReplayRestartTest {
    @TempDir
    Path dir;

    private StreamingContext context(ReplayPipeline pipeline, Path recording) {
        return StreamingContext.getOrCreate(dir.resolve("checkpoint").toString(), () -> {
            StreamingContext ctx = StreamingContext.create(SharedSpark.context(), ReplayPipeline.INTERVAL,
                    Clock.replay());
            pipeline.build(ctx, recording);
            return ctx;
        });
    }

    @Test
    void anInterruptedReplayContinuesWhereItStopped() throws Exception {
        Path recording = ReplayPipeline.writeRecording(dir);
        ReplayPipeline whole = new ReplayPipeline();
        StreamingContext uninterrupted = StreamingContext.create(SharedSpark.context(), ReplayPipeline.INTERVAL,
                Clock.replay());
        whole.build(uninterrupted, recording);
        uninterrupted.start();
        assertTrue(uninterrupted.awaitTerminationOrTimeout(Duration.ofSeconds(60)));

        ReplayPipeline first = new ReplayPipeline();
        StreamingContext interrupted = context(first, recording);
        List<BatchInfo> ran = interrupted.runBatches(5);
        assertEquals(ReplayPipeline.batch(5), ran.get(ran.size() - 1).batchTime());
        interrupted.stop(false, true);

        ReplayPipeline second = new ReplayPipeline();
        StreamingContext restarted = context(second, recording);
        assertEquals(ReplayPipeline.batch(5), restarted.recoveredBatch().orElseThrow());
        restarted.start();
        assertTrue(restarted.awaitTerminationOrTimeout(Duration.ofSeconds(60)), "the replay ends by itself");

        Map<String, Map<Long, List<String>>> joined = new TreeMap<>(first.snapshot());
        second.snapshot().forEach((name, batches) -> batches.forEach((time, rows) -> {
            assertTrue(!joined.get(name).containsKey(time), name + " ran batch " + time + " twice");
            joined.get(name).put(time, rows);
        }));
        assertEquals(whole.snapshot(), joined);
    }
}
