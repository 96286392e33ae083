package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.Time;
import io.sluice.testkit.ManualClock;
import io.sluice.testkit.SharedSpark;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark Streaming's {@code getOrCreate(dir, factory, hadoopConf[, createOnError])} and {@code
 * awaitTerminationOrTimeout(long)}: the checkpoint is read with the configuration given, and a directory whose
 * checkpoints cannot be read fails the start unless {@code createOnError} asks for a fresh one.
 */
class GetOrCreateHadoopConfTest {
    private static final String MARKER = "sluice.test.getOrCreate.marker";

    @TempDir
    Path dir;

    private StreamingContext context(long start, Configuration hadoopConf, boolean createOnError) {
        ManualClock clock = new ManualClock(start);
        StreamingContext context = StreamingContext.getOrCreate(dir.toString(), () -> {
            StreamingContext c = StreamingContext.create(SharedSpark.context(), Duration.ofSeconds(1), clock);
            OffsetSource.stream(c, 3).foreachRDD(rdd -> rdd.count());
            return c;
        }, hadoopConf, createOnError);
        return context;
    }

    /** Starts the context, runs its batches up to {@code until}, stops it. */
    private static void runUntil(StreamingContext context, long until) throws Exception {
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
        ((ManualClock) context.clock()).setTime(until);
        assertTrue(done.await(60, TimeUnit.SECONDS), "batch " + until + " completed");
        assertFalse(context.awaitTerminationOrTimeout(1L), "still running: the millisecond form waited 1 ms");
        context.stop(false, false);
        assertTrue(context.awaitTerminationOrTimeout(0L), "stopped");
    }

    @Test
    void theCheckpointIsReadWithTheGivenHadoopConfiguration() throws Exception {
        Configuration conf = new Configuration();
        conf.set(MARKER, "given");
        StreamingContext first = context(0, conf, false);
        assertEquals("given", first.sparkContext().hadoopConfiguration().get(MARKER));
        runUntil(first, 2000);

        StreamingContext second = context(2500, conf, false);
        assertEquals(Optional.of(new Time(2000)), second.recoveredBatch());
        runUntil(second, 3000);
    }

    @Test
    void unreadableCheckpointsFailTheStartUnlessCreateOnError() throws Exception {
        runUntil(context(0, new Configuration(), false), 2000);
        List<Path> checkpoints;
        try (Stream<Path> files = Files.list(dir.resolve("progress"))) {
            checkpoints = files.filter(p -> p.getFileName().toString().startsWith("checkpoint-")).toList();
        }
        assertFalse(checkpoints.isEmpty(), "the first run wrote checkpoints");
        for (Path checkpoint : checkpoints) {
            Files.writeString(checkpoint, "not a checkpoint");
        }

        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> context(2500, new Configuration(), false));
        assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());

        StreamingContext fresh = context(2500, new Configuration(), true);
        assertEquals(Optional.empty(), fresh.recoveredBatch());
        runUntil(fresh, 4000); // and it checkpoints anew, over the unreadable files
        StreamingContext after = context(4500, new Configuration(), false);
        try {
            assertEquals(Optional.of(new Time(4000)), after.recoveredBatch());
        } finally {
            after.stop(false);
        }
    }
}
