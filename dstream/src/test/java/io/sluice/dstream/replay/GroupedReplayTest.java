package io.sluice.dstream.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.Clock;
import io.sluice.dstream.DStream;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.Replay;
import io.sluice.dstream.Settings;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.state.StateSpec;
import io.sluice.rdd.internal.JobTags;
import io.sluice.testkit.SharedSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * A replay runs consecutive batches as groups: the part files of every {@code saveAsTextFiles} of a group are
 * written in one Spark job, and each batch then commits its directories in order. The files are those of a run
 * whose batches run alone, user code ({@code foreachRDD}) sees each batch in order with the outputs before it
 * committed and those after it not yet, and a failing batch fails as it would alone: named, and after the
 * batches before it committed.
 */
class GroupedReplayTest {
    private static final long BASE = 1_764_547_200_000L; // on the 1 s grid; 3 s past a multiple of 7 s
    private static final int BATCHES = 23;
    private static final String MARKER = "GroupedReplayTest: every job before this one was counted";

    @TempDir
    Path dir;

    /** Three records per second, keys a..e, in time order. */
    private Path recording() throws IOException {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < BATCHES; s++) {
            for (int r = 0; r < 3; r++) {
                lines.add((BASE + s * 1000L + 100 + r * 300) + "," + (char) ('a' + (s * 3 + r) % 5));
            }
        }
        Path file = dir.resolve("recording/log.txt");
        Files.createDirectories(file.getParent());
        Files.write(file, lines);
        return file.getParent();
    }

    /** The pipeline: a 5 s window count and a running count, each saved, with a foreachRDD between them. */
    private static void build(StreamingContext ctx, Path recording, Path out, List<String> seen, String failOn) {
        DStream<String> lines = Replay.textFiles(ctx, recording.toString(),
                Replay.timestampColumn(0, ",", "epochMillis"), Duration.ZERO);
        PairDStream<String, Long> keys = lines.map(l -> {
            if (l.startsWith(failOn)) {
                throw new IllegalArgumentException("bad line " + l);
            }
            return l;
        }).mapToPair(l -> new Tuple2<>(l.split(",")[1], 1L));
        // Lineage cut every 60 s, past the recording: a cut at 10 s and 20 s would add checkpoint-writing jobs
        // when the shared SparkContext has a checkpoint directory (an earlier test class may have set one).
        keys.reduceByKeyAndWindow(Long::sum, (a, b) -> a - b, Duration.ofSeconds(5), Duration.ofSeconds(1))
                .checkpoint(Duration.ofSeconds(60)).saveAsTextFiles(out + "/window", "txt");
        keys.foreachRDD((rdd, time) -> seen.add(time.milliseconds() + " window "
                + Files.exists(Path.of(out + "/window-" + time.milliseconds() + ".txt/_SUCCESS")) + " counts "
                + Files.exists(Path.of(out + "/counts-" + time.milliseconds() + ".txt"))));
        keys.mapWithState(StateSpec.<String, Long, Long, String>function((key, one, state) -> {
            long n = (state.exists() ? state.get() : 0L) + one.orElse(0L);
            state.update(n);
            return key + "=" + n;
        })).checkpoint(Duration.ofSeconds(60)).saveAsTextFiles(out + "/counts", "txt");
    }

    /** Runs the replay with groups of {@code group} batches; returns the Spark jobs its batches ran. */
    private List<String> replay(Path recording, Path out, int group, List<String> seen, String failOn)
            throws InterruptedException {
        List<String> jobs = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch delivered = new CountDownLatch(1);
        SparkListener counter = new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart start) {
                String group = start.properties().getProperty("spark.jobGroup.id");
                if (MARKER.equals(start.properties().getProperty("spark.job.description"))) {
                    delivered.countDown();
                } else if (group != null && group.startsWith(JobTags.GROUP_PREFIX) && isReplayed(
                        Long.parseLong(group.substring(JobTags.GROUP_PREFIX.length())))) {
                    // a job of this replay's batches (the shared context runs others)
                    jobs.add(group + ": " + start.properties().getProperty("spark.job.description"));
                }
            }
        };
        SharedSpark.context().sc().addSparkListener(counter);
        StreamingContext ctx = StreamingContext.create(SharedSpark.context(), Duration.ofSeconds(1), Clock.replay());
        ctx.conf(Settings.REPLAY_GROUP_BATCHES, String.valueOf(group));
        build(ctx, recording, out, seen, failOn);
        CountDownLatch last = new CountDownLatch(1);
        ctx.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                if (event.batchInfo().batchTime().milliseconds() == BASE + BATCHES * 1000L) {
                    last.countDown();
                }
            }
        });
        try {
            ctx.start();
            assertTrue(ctx.awaitTerminationOrTimeout(Duration.ofSeconds(120)), "the replay ends by itself");
        } finally {
            // A failed batch fails awaitTermination at once; the replay goes on to its last batch all the same.
            assertTrue(last.await(120, TimeUnit.SECONDS), "the last batch completed");
            ctx.stop(false, true);
            // Listener events arrive in order: once the marker job's start arrived, so had every job's before it.
            SharedSpark.context().setJobDescription(MARKER);
            SharedSpark.context().parallelize(List.of(1)).count();
            SharedSpark.context().setJobDescription(null);
            assertTrue(delivered.await(60, TimeUnit.SECONDS));
            SharedSpark.context().sc().removeSparkListener(counter);
        }
        return List.copyOf(jobs);
    }

    /**
     * Whether {@code batchTime} is one of the recording's: not a later time (batches of the wall clock, which
     * other test classes' contexts on the shared SparkContext may still be finishing).
     */
    private static boolean isReplayed(long batchTime) {
        return batchTime > BASE && batchTime <= BASE + BATCHES * 1000L;
    }

    /** Every file under {@code out} (hidden ones too), by relative path, with its content. */
    private static Map<String, String> files(Path out) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(out)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                files.put(out.relativize(p).toString(), Files.readString(p));
            }
        }
        return files;
    }

    @Test
    void groupsCommitTheFilesOfBatchesRunAloneInOneJobPerGroup() throws Exception {
        Path recording = recording();
        List<String> seenAlone = new ArrayList<>();
        List<String> jobsAlone = replay(recording, dir.resolve("alone"), 1, seenAlone, "none");
        List<String> seenGrouped = new ArrayList<>();
        List<String> jobsGrouped = replay(recording, dir.resolve("grouped"), 7, seenGrouped, "none");

        Map<String, String> alone = files(dir.resolve("alone"));
        assertEquals(BATCHES * 2 * 3, alone.size(), "per batch and output: two parts and _SUCCESS");
        assertEquals(alone, files(dir.resolve("grouped")));
        assertEquals("a=1\nb=1\nc=1\n", alone.get("counts-" + (BASE + 1000) + ".txt/part-00000")
                + alone.get("counts-" + (BASE + 1000) + ".txt/part-00001"));

        List<String> expected = new ArrayList<>();
        for (int s = 0; s < BATCHES; s++) {
            expected.add((BASE + (s + 1) * 1000L) + " window true counts false");
        }
        assertEquals(expected, seenAlone);
        assertEquals(expected, seenGrouped, "each batch in order, between its two outputs' commits");
        // Alone, one job per batch for both outputs; grouped, one per group of 7 on the epoch-aligned grid
        // (batches 1-3, 4-10, 11-17, and 18-23, ended by the recording).
        assertEquals(BATCHES, jobsAlone.size(), String.join("\n", jobsAlone));
        assertEquals(4, jobsGrouped.size(), String.join("\n", jobsGrouped));
    }

    @Test
    void aFailingBatchInAGroupFailsAsAloneAfterTheBatchesBeforeItCommitted() throws Exception {
        Path recording = recording();
        long failing = BASE + 12_000; // batch 13 (records from 12 s), in the group of batches 11-17
        List<String> seen = new ArrayList<>();
        org.apache.spark.SparkException e = assertThrows(org.apache.spark.SparkException.class,
                () -> replay(recording, dir.resolve("out"), 7, seen, String.valueOf(failing + 100)));
        assertTrue(e.getMessage().contains("map at GroupedReplayTest.java:"), e.getMessage());
        assertTrue(e.getMessage().contains("failed at batch " + (failing + 1000) + " ms"), e.getMessage());
        assertTrue(e.getMessage().contains("bad line " + (failing + 100)), e.getMessage());
        Map<String, String> files = files(dir.resolve("out"));
        for (int s = 1; s <= 12; s++) { // 11 and 12 too: the group's batches before the failed one
            long t = BASE + s * 1000L;
            assertTrue(files.containsKey("window-" + t + ".txt/_SUCCESS"), "batch " + s + " committed");
            assertTrue(files.containsKey("counts-" + t + ".txt/_SUCCESS"), "batch " + s + " committed");
        }
        assertFalse(files.keySet().stream().anyMatch(f -> f.startsWith("window-" + (failing + 1000))),
                "the failed batch wrote nothing visible");
        assertFalse(files.keySet().stream().anyMatch(f -> f.startsWith(".")), "no staging left: " + files.keySet());
    }
}
