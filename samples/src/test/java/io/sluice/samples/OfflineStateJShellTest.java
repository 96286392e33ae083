package io.sluice.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Offline state from JShell (a notebook): a script runs a checkpointed running count over a recording for three
 * batches, stops the streaming context, then on the same SparkContext reads the checkpoint: its description
 * (the inspector's text), the newest state with update times, the changes from the first batch to the third,
 * and a bootstrap written from an RDD and read back. Then the inspector's main runs on the directory as its
 * documented command does ({@code java -cp ... io.sluice.dstream.CheckpointInspector <dir>}).
 */
class OfflineStateJShellTest {
    private static final long BASE = 1_764_547_200_000L; // 2025-12-01T00:00:00Z

    @TempDir
    Path dir;

    @Test
    void aNotebookReadsDiffsAndBootstrapsCheckpointedState() throws Exception {
        Path recording = dir.resolve("log.txt");
        Files.write(recording, List.of(BASE + 100 + ",a", BASE + 200 + ",a", BASE + 300 + ",b", BASE + 1100 + ",a",
                BASE + 1500 + ",c", BASE + 2500 + ",b"));
        Path checkpoint = dir.resolve("checkpoint");
        Path bootstrapped = dir.resolve("bootstrapped");
        String script = String.join("\n",
                "import io.sluice.dstream.*;",
                "import io.sluice.state.*;",
                "import io.sluice.rdd.Time;",
                "import java.time.Duration;",
                "import java.util.*;",
                "import scala.Tuple2;",
                "import org.apache.spark.SparkConf;",
                "import org.apache.spark.api.java.JavaSparkContext;",
                "var sc = new JavaSparkContext(new SparkConf().setMaster(\"local[2]\").setAppName(\"notebook\")"
                        + ".set(\"spark.ui.enabled\", \"false\").set(\"spark.driver.host\", \"127.0.0.1\")"
                        + ".set(\"spark.driver.bindAddress\", \"127.0.0.1\"));",
                "sc.setLogLevel(\"ERROR\");",
                "var ctx = StreamingContext.create(sc, Duration.ofSeconds(1), Clock.replay());",
                "ctx.checkpoint(\"" + checkpoint + "\");",
                "var spec = StateSpec.<String, Integer, Integer, Integer>function((k, v, s) -> { int n = (s.exists() "
                        + "? s.get() : 0) + v.orElse(0); s.update(n); return n; }).numPartitions(2);",
                "var counts = Replay.textFiles(ctx, \"" + recording + "\", Replay.timestampColumn(0, \",\", "
                        + "\"epochMillis\")).mapToPair(l -> new Tuple2<>(l.split(\",\")[1], 1)).mapWithState(spec)"
                        + ".name(\"counts\").checkpoint(Duration.ofSeconds(1));",
                "var table = BatchTable.of(counts);",
                "System.out.println(\"ran \" + ctx.runBatches(3).size() + \" batches\");",
                "ctx.stop(false);",
                "var saved = CheckpointState.open(sc, \"" + checkpoint + "\");",
                "System.out.print(saved.describe());",
                "System.out.println(\"batches \" + saved.stateBatches(\"counts\"));",
                "JavaPairRDD<String, StateEntry<Integer>> newest = saved.read(\"counts\");",
                "System.out.println(\"newest \" + new TreeMap<>(newest.collectAsMap()));",
                "var batches = saved.stateBatches(\"counts\");",
                "System.out.println(\"changes \" + new TreeMap<>(saved.<String, Integer>changes(\"counts\", "
                        + "batches.get(0), batches.get(2)).mapValues(c -> c.kind() + \" \" + (c.before() == null "
                        + "? null : c.before().state()) + \"->\" + c.after().state()).collectAsMap()));",
                "var written = CheckpointState.bootstrap(sc, \"" + bootstrapped + "\", Duration.ofSeconds(1))"
                        + ".batchTime(batches.get(2)).mapWithState(\"counts\", newest.mapValues(e -> e.state() * 10)"
                        + ", spec).write();",
                "System.out.println(\"bootstrapped \" + new TreeMap<>(CheckpointState.open(sc, \"" + bootstrapped
                        + "\").<String, Integer>read(\"counts\").mapValues(StateEntry::state).collectAsMap()) + \" at \""
                        + " + (written.equals(batches.get(2))));",
                "sc.stop();",
                "/exit",
                "");
        Path file = dir.resolve("offline.jsh");
        Files.writeString(file, script.replace("JavaPairRDD<", "org.apache.spark.api.java.JavaPairRDD<"));
        JShellRun.Result run = JShellRun.script(file);
        String printed = run.printed();
        List<String> lines = run.lines();
        long b1 = BASE + 1000;
        long b3 = BASE + 3000;
        assertTrue(lines.contains("ran 3 batches"), printed);
        assertTrue(lines.contains("Batches (3 checkpoints, oldest first):"), printed);
        assertTrue(lines.contains("counts mapWithState state @ " + b3 + ": 2 partitions, 128 key groups"), printed);
        assertTrue(lines.contains("batches [" + b1 + " ms, " + (BASE + 2000) + " ms, " + b3 + " ms]"), printed);
        assertTrue(lines.contains("newest {a=StateEntry[state=3, lastUpdate=" + (BASE + 2000) + " ms], "
                + "b=StateEntry[state=2, lastUpdate=" + b3 + " ms], c=StateEntry[state=1, lastUpdate="
                + (BASE + 2000) + " ms]}"), printed);
        assertTrue(lines.contains("changes {a=UPDATED 2->3, b=UPDATED 1->2, c=ADDED null->1}"), printed);
        assertTrue(lines.contains("bootstrapped {a=30, b=20, c=10} at true"), printed);
        assertEquals(0, run.exitCode(), printed);

        JShellRun.Result inspector = JShellRun.main("io.sluice.dstream.CheckpointInspector", bootstrapped.toString());
        List<String> report = inspector.lines();
        assertEquals(0, inspector.exitCode(), inspector.printed());
        assertTrue(report.contains(b3 + " (2025-12-01T00:00:03Z) pending 0 state 'counts' @ " + b3), inspector.printed());
        assertTrue(report.contains("total 3 " + totalBytes(bootstrapped)), inspector.printed());
        assertTrue(report.contains("none"), "a bootstrap saves no source position: " + inspector.printed());
        JShellRun.Result wrong = JShellRun.main("io.sluice.dstream.CheckpointInspector", dir.resolve("nothing").toString(),
                "--batch", "5");
        assertEquals(1, wrong.exitCode(), wrong.printed());
        assertTrue(wrong.printed().contains("No checkpoint in file:" + dir.resolve("nothing")), wrong.printed());
    }

    /** The bytes of every state file under a checkpoint directory. */
    private static long totalBytes(Path checkpoint) throws Exception {
        try (var files = Files.walk(checkpoint.resolve("state"))) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
