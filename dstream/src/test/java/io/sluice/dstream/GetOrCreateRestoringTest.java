package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.testkit.ManualClock;
import io.sluice.testkit.SharedSpark;
import io.sluice.rdd.Time;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The factory given to getOrCreate learns whether the start restores a checkpoint, so fresh-start side effects
 * written for Spark Streaming (deleting the previous run's output) do not run at a restart.
 */
class GetOrCreateRestoringTest {
    @TempDir
    Path dir;

    private final List<Boolean> told = new CopyOnWriteArrayList<>();

    /** Starts the application, runs batch {@code until}, stops; the factory deletes the output on a fresh start. */
    private StreamingContext run(long start, long until) throws Exception {
        ManualClock clock = new ManualClock(start);
        Path marker = dir.resolve("out/marker");
        StreamingContext context = StreamingContext.getOrCreate(dir.resolve("checkpoint").toString(), restoring -> {
            told.add(restoring);
            if (!restoring) {
                Files.createDirectories(marker.getParent());
                Files.writeString(marker, "fresh output of the first run");
            }
            StreamingContext c = StreamingContext.create(SharedSpark.context(), Duration.ofSeconds(1), clock);
            OffsetSource.stream(c, 3).foreachRDD(rdd -> rdd.count());
            return c;
        });
        CountDownLatch done = new CountDownLatch(1);
        context.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                if (event.batchInfo().batchTime().equals(new Time(until))) {
                    done.countDown();
                }
            }
        });
        context.start();
        clock.setTime(until);
        assertEquals(true, done.await(60, TimeUnit.SECONDS), "batch " + until + " completed");
        context.stop(false, false);
        return context;
    }

    @Test
    void theFactoryIsToldWhetherTheStartRestoresACheckpoint() throws Exception {
        StreamingContext first = run(0, 2000);
        assertEquals(Optional.empty(), first.recoveredBatch());
        Files.writeString(dir.resolve("out/marker"), "the first run's output");

        StreamingContext second = run(2500, 3000);
        assertEquals(Optional.of(new Time(2000)), second.recoveredBatch());
        assertEquals(List.of(false, true), told);
        assertEquals("the first run's output", Files.readString(dir.resolve("out/marker")));
    }
}
