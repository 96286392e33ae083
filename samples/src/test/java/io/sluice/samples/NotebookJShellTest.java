package io.sluice.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice from JShell, the JDK's REPL that Java notebook kernels are built on: a script makes a SparkContext as a
 * notebook has one, runs a windowed pipeline over a recording for three batches (runBatches on a replay clock),
 * prints it as a table, stops the streaming context only, then runs a stateful pipeline on the same SparkContext
 * for two batches and reads its current state as an RDD. The test checks what the script printed.
 */
class NotebookJShellTest {
    private static final long BASE = 1_764_547_200_000L; // 2025-12-01T00:00:00Z

    @TempDir
    Path dir;

    @Test
    void aJShellScriptRunsPipelinesBatchByBatchAndPrintsTables() throws Exception {
        Path recording = dir.resolve("log.txt");
        Files.write(recording, List.of(BASE + 100 + ",a", BASE + 200 + ",a", BASE + 300 + ",b", BASE + 1100 + ",a",
                BASE + 1500 + ",c", BASE + 2500 + ",b"));
        String script = String.join("\n",
                "import io.sluice.dstream.*;",
                "import io.sluice.state.*;",
                "import java.time.Duration;",
                "import scala.Tuple2;",
                "import org.apache.spark.SparkConf;",
                "import org.apache.spark.api.java.JavaSparkContext;",
                "var sc = new JavaSparkContext(new SparkConf().setMaster(\"local[2]\").setAppName(\"notebook\")"
                        + ".set(\"spark.ui.enabled\", \"false\").set(\"spark.driver.host\", \"127.0.0.1\")"
                        + ".set(\"spark.driver.bindAddress\", \"127.0.0.1\"));",
                "sc.setLogLevel(\"ERROR\");",
                "var ctx = StreamingContext.create(sc, Duration.ofSeconds(1), Clock.replay());",
                "var keys = Replay.textFiles(ctx, \"" + recording + "\", Replay.timestampColumn(0, \",\", "
                        + "\"epochMillis\")).mapToPair(l -> new Tuple2<>(l.split(\",\")[1], 1));",
                "var windowed = BatchTable.of(keys.reduceByKeyAndWindow((a, b) -> a + b, Duration.ofSeconds(2))"
                        + ".transformToPair(r -> r.sortByKey()));",
                "System.out.println(\"ran \" + ctx.runBatches(3).size() + \" batches\");",
                "System.out.print(windowed);",
                "ctx.stop(false);",
                "var ctx2 = StreamingContext.create(sc, Duration.ofSeconds(1), Clock.replay());",
                "var counts = Replay.textFiles(ctx2, \"" + recording + "\", Replay.timestampColumn(0, \",\", "
                        + "\"epochMillis\")).mapToPair(l -> new Tuple2<>(l.split(\",\")[1], 1)).mapWithState("
                        + "StateSpec.<String, Integer, Integer, Integer>function((k, v, s) -> { int n = (s.exists() "
                        + "? s.get() : 0) + v.orElse(0); s.update(n); return n; }));",
                "var state = BatchTable.of(counts.stateSnapshots().transformToPair(r -> r.sortByKey()));",
                "System.out.println(\"ran \" + ctx2.runBatches(2).size() + \" batches\");",
                "System.out.print(state);",
                "System.out.println(\"current state \" + new java.util.TreeMap<>(counts.currentState().collectAsMap()));",
                "ctx2.stop(false);",
                "System.out.println(\"spark still up: \" + !sc.sc().isStopped());",
                "sc.stop();",
                "/exit",
                "");
        Path file = dir.resolve("notebook.jsh");
        Files.writeString(file, script);

        JShellRun.Result run = JShellRun.script(file);
        String printed = run.printed();
        List<String> lines = run.lines();

        String windowTable = String.join("\n",
                "ran 3 batches",
                "batch | key | value",
                "---------------------+-----+------",
                "2025-12-01T00:00:01Z | a | 2",
                "| b | 1",
                "2025-12-01T00:00:02Z | a | 3",
                "| b | 1",
                "| c | 1",
                "2025-12-01T00:00:03Z | a | 1",
                "| b | 1",
                "| c | 1");
        assertTrue(String.join("\n", lines).contains(windowTable.replaceAll(" +", " ")), printed);
        assertTrue(String.join("\n", lines).contains(String.join("\n",
                "ran 2 batches",
                "batch | key | value",
                "---------------------+-----+------",
                "2025-12-01T00:00:01Z | a | 2",
                "| b | 1",
                "2025-12-01T00:00:02Z | a | 3",
                "| b | 1",
                "| c | 1")), printed);
        assertTrue(lines.contains("current state {a=3, b=1, c=1}"), printed);
        assertTrue(lines.contains("spark still up: true"), printed);
        assertEquals(0, run.exitCode(), printed);
    }
}
