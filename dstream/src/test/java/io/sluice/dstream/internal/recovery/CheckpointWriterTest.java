package io.sluice.dstream.internal.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.StartPlan;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.CheckpointStorage;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.InMemoryCheckpointStorage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The checkpoint writer under a job far behind: checkpoints waiting to be written never pile up. */
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

    private static void complete(CheckpointWriter writer, long ms) {
        writer.batchGenerated(new Time(ms));
        writer.batchCompleted(new Time(ms));
    }
}
