package io.sluice.dstream.internal.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.Clock;
import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.SourceOperator;
import io.sluice.dstream.internal.StartPlan;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.source.InputSource;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.CheckpointStorage;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.InMemoryCheckpointStorage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint writer: under a job far behind, checkpoints waiting to be written never pile up; a checkpoint
 * saves the positions a restart needs.
 */
class CheckpointWriterTest {
    /** A checkpoint directory whose first progress file write blocks until released; it records what it wrote. */
    private static final class SlowStorage implements CheckpointStorage {
        final InMemoryCheckpointStorage files = new InMemoryCheckpointStorage();
        final List<String> progressWritten = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch firstWriteStarted = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void writeAtomically(String path, byte[] bytes) throws IOException {
            if (path.startsWith(CheckpointStore.PROGRESS_DIR + "/")) {
                progressWritten.add(path);
                firstWriteStarted.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
            files.writeAtomically(path, bytes);
        }

        @Override
        public List<String> listFiles(String dir) throws IOException {
            return files.listFiles(dir);
        }

        @Override
        public byte[] read(String path) throws IOException {
            return files.read(path);
        }

        @Override
        public OptionalLong length(String path) throws IOException {
            return files.length(path);
        }

        @Override
        public void delete(String path) throws IOException {
            files.delete(path);
        }

        @Override
        public String describe(String path) {
            return files.describe(path);
        }
    }

    @Test
    void checkpointsCompletedWhileOneIsWrittenCollapseIntoTheNewest() throws Exception {
        SlowStorage storage = new SlowStorage();
        CheckpointStore store = new CheckpointStore(storage, CheckpointStore.DEFAULT_RETAINED);
        Duration interval = Duration.ofSeconds(1);
        StreamGraph graph = new StreamGraph(null, new GraphDescription(interval), new Time(0), Set.of(),
                StartPlan.FRESH);
        CheckpointWriter writer = new CheckpointWriter(store, graph, List.of(), new Time(0), null);

        complete(writer, 1000);
        assertTrue(storage.firstWriteStarted.await(30, TimeUnit.SECONDS), "the first checkpoint is being written");
        for (long t = 2000; t <= 6000; t += 1000) { // each batch's checkpoint would carry every pending batch
            complete(writer, t);
        }
        storage.release.countDown();
        writer.close();

        assertEquals(2, storage.progressWritten.size(), "written: " + storage.progressWritten);
        assertEquals(new Time(6000), writer.lastWritten());
        assertEquals(new Time(6000), store.latest().checkpoint().orElseThrow().batchTime());
    }

    /** A source whose position after batch t is "after t". */
    private static final class PositionedSource implements InputSource<String> {
        @Override
        public Optional<JavaRDD<String>> compute(Time time) {
            return Optional.empty();
        }

        @Override
        public Optional<String> positionAfter(Time time) {
            return Optional.of("after " + time.milliseconds());
        }
    }

    /**
     * A restart reads again the batches a remembered window may ask for: the checkpoint of batch t saves the source's
     * positions after the batch times in [t - remember, t], on the batch grid even when the remember duration is not
     * a whole number of batch intervals.
     */
    @Test
    void savesTheSourcePositionsOfTheRememberedBatchTimes() throws Exception {
        GraphDescription description = new GraphDescription(Duration.ofSeconds(1));
        Node<String> input = SourceOperator.node(description, "positioned", new PositionedSource(),
                new SourceOperator.Environment(Clock.system(), key -> null, listener -> { }));
        description.addOutput(input, "foreachRDD", (rdd, time) -> { });
        description.remember(Duration.ofMillis(2500));
        StreamGraph graph = new StreamGraph(null, description, new Time(0), Set.of(), StartPlan.FRESH);
        CheckpointStore store = new CheckpointStore(new InMemoryCheckpointStorage(), CheckpointStore.DEFAULT_RETAINED);
        CheckpointWriter writer = new CheckpointWriter(store, graph, List.of(), new Time(0), null);

        for (long t = 1000; t <= 10_000; t += 1000) {
            complete(writer, t);
        }
        writer.close();

        Checkpoint latest = store.latest().checkpoint().orElseThrow();
        assertEquals(new Time(10_000), latest.batchTime());
        assertEquals(List.of("after 8000", "after 9000", "after 10000"),
                latest.sources().stream().map(Checkpoint.SourcePosition::position).toList());
    }

    private static void complete(CheckpointWriter writer, long ms) {
        writer.batchGenerated(new Time(ms));
        writer.batchCompleted(new Time(ms));
    }
}
