package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.dstream.testing.SparkStreamingRun;
import io.sluice.rdd.Time;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.io.NotSerializableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.streaming.api.java.JavaDStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Option;
import scala.Tuple2;

/**
 * The functions of {@code transform}, {@code transformToPair}, {@code transformWith} and the context's {@code
 * transform} run on the driver: they need not be serializable, with or without a checkpoint directory, since no
 * Sluice checkpoint stores a function. Spark Streaming does not check them either (it cleans them without a
 * serializability check) until checkpointing is on: then its start() Java-serializes the graph with its functions
 * and fails.
 */
class DriverFunctionsTest {
    private static final List<List<Integer>> INPUT = List.of(List.of(1, 2), List.of(3), List.of());
    /** Per batch: transform adds 10 (1, 2 -> 11, 12), transformWith appends the batch's odd records times 100. */
    private static final List<List<Integer>> EXPECTED = List.of(List.of(11, 12, 100), List.of(13, 300), List.of());
    private static final List<String> EXPECTED_CALLS = List.of("transformWith at 1000", "transform(List) at 1000",
            "transformWith at 2000", "transform(List) at 2000", "transformWith at 3000", "transform(List) at 3000");

    /** Deliberately not Serializable: stands for a driver-side client (a connection pool, a metrics registry). */
    static final class DriverClient {
        private final List<String> calls = new ArrayList<>();

        int offset() {
            return 10;
        }

        void saw(String function, Time batch) {
            calls.add(function + " at " + batch.milliseconds());
        }
    }

    @Test
    void withoutACheckpointDirectory() {
        DriverClient client = new DriverClient();
        assertEquals(EXPECTED, runOnSluice(client, null));
        assertEquals(EXPECTED_CALLS, client.calls, "called on the driver, once per batch");
    }

    @Test
    void withACheckpointDirectory(@TempDir Path dir) {
        DriverClient client = new DriverClient();
        assertEquals(EXPECTED, runOnSluice(client, dir));
        assertEquals(EXPECTED_CALLS, client.calls);
    }

    /** Spark Streaming runs such a transform until checkpointing is on, where its start() refuses the graph. */
    @Test
    void sparkStreamingRefusesThemOnlyWithCheckpointing(@TempDir Path dir) throws Exception {
        DriverClient client = new DriverClient();
        try (SparkStreamingRun spark = new SparkStreamingRun(2)) {
            JavaDStream<Integer> in = spark.input(INPUT);
            Collected<Integer> out = spark.collect(in.transform(rdd -> {
                int by = client.offset();
                return rdd.map(x -> x + by);
            }));
            spark.runBatches(INPUT.size());
            assertEquals(List.of(List.of(11, 12), List.of(13), List.of()), out.batches());
        }
        var sc = io.sluice.testkit.SharedSpark.context().sc();
        Option<String> before = sc.checkpointDir();
        SparkStreamingRun spark = new SparkStreamingRun(2);
        try {
            spark.context().checkpoint(dir.toString());
            // a file stream: Spark's queueStream cannot be checkpointed at all, whatever its functions
            Path input = Files.createDirectory(dir.resolve("in"));
            JavaDStream<String> in = spark.context().textFileStream(input.toString());
            in.transform(rdd -> rdd.map(line -> line + client.offset())).print();
            NotSerializableException refused = assertThrows(NotSerializableException.class,
                    () -> spark.context().start());
            assertTrue(refused.getMessage().contains("not serializable")
                    && refused.getMessage().contains(DriverClient.class.getName()), refused.getMessage());
        } finally {
            if (spark.context().getState() != org.apache.spark.streaming.StreamingContextState.STOPPED) {
                spark.close(); // the refused start stopped it already
            }
            sc.checkpointDir_$eq(before);
        }
    }

    private static List<List<Integer>> runOnSluice(DriverClient client, Path checkpoints) {
        try (StreamTester t = new StreamTester()) {
            var sc = t.sparkContext().sc();
            Option<String> before = sc.checkpointDir();
            try {
                if (checkpoints != null) {
                    t.context().checkpoint(checkpoints.toString());
                }
                DStream<Integer> in = t.input(INPUT);
                DStream<Integer> shifted = in.transform(rdd -> {
                    int by = client.offset();
                    return rdd.map(x -> x + by);
                });
                PairDStream<Integer, Integer> odd = in.transformToPair(rdd -> {
                    int times = client.offset() * 10;
                    return rdd.filter(x -> x % 2 == 1).mapToPair(x -> new Tuple2<>(x, x * times));
                });
                DStream<Integer> both = shifted.transformWith(odd, (a, b, time) -> {
                    client.saw("transformWith", time);
                    return a.union(b.values());
                });
                List<DStreamLike<?, ?>> streams = List.of(both);
                DStream<Integer> all = t.context().transform(streams, (rdds, time) -> {
                    @SuppressWarnings("unchecked")
                    var rdd = (org.apache.spark.api.java.JavaRDD<Integer>) rdds.get(0);
                    client.saw("transform(List)", time);
                    return rdd;
                });
                Collected<Integer> out = t.collect(all);
                t.runBatches(INPUT.size());
                assertTrue(checkpoints == null || sc.checkpointDir().isDefined(), "RDDs are cut to the directory");
                return out.batches();
            } finally {
                sc.checkpointDir_$eq(before);
            }
        }
    }
}
