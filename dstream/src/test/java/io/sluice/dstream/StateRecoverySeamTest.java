package io.sluice.dstream;

import static io.sluice.testkit.Collected.multisets;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.dstream.internal.recovery.Recovery;
import io.sluice.dstream.internal.state.StatefulOperator;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import io.sluice.rdd.Time;
import io.sluice.state.State;
import io.sluice.state.internal.StateCodec;
import io.sluice.state.StateSpec;
import io.sluice.state.internal.StateVersion;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.Optional;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * The seam the recovery layer uses: take a stateful operator's state after a batch, encode each partition with
 * {@link StateCodec}, and start a new context's operator from the decoded partitions. The restarted context is
 * started with the decoded state (as a recovery would give it to the operator it builds), and must continue
 * exactly as an uninterrupted one, timeouts included (they follow the restored update times).
 */
class StateRecoverySeamTest {
    private static final List<List<String>> WORDS = List.of(
            List.of("a", "b", "c"), List.of("a"), List.of("a", "c"),   // before the "crash" (batches 1-3)
            List.of("a"), List.of(), List.of("c"));                    // after it (batches 4-6)

    private static MapWithStateDStream<String, Integer, Integer, String> pipeline(DStream<String> words) {
        return words.mapToPair(w -> new Tuple2<>(w, 1))
                .mapWithState(StateSpec.function((String k, Optional<Integer> one, State<Integer> s) -> {
                    if (s.isTimingOut()) {
                        return k + " timed out at " + s.get();
                    }
                    s.update(s.getOption().orElse(0) + one.get());
                    return k + "=" + s.get();
                }).timeout(Duration.ofMillis(2500)).numPartitions(3))
                .name("counts");
    }

    @SuppressWarnings("unchecked")
    private static StatefulOperator<String, Integer, Integer, ?, ?> stateOf(DStream<?> stream) {
        return (StatefulOperator<String, Integer, Integer, ?, ?>) stream.operator();
    }

    private static byte[] encode(StateVersion<String, Integer> version) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new StateCodec().writeSnapshot(version, out);
        return out.toByteArray();
    }

    private static StateVersion<String, Integer> decode(byte[] bytes) throws Exception {
        return new StateCodec().readSnapshot(new ByteArrayInputStream(bytes));
    }

    @Test
    void restoredStateContinuesLikeAnUninterruptedRun() {
        List<List<String>> expected;
        try (StreamTester t = new StreamTester()) {
            Collected<String> out = t.collect(pipeline(t.input(WORDS)));
            t.runBatches(6);
            expected = out.batches().subList(3, 6);
        }
        List<byte[]> partitions;
        try (StreamTester t = new StreamTester()) {
            MapWithStateDStream<String, Integer, Integer, String> counts = pipeline(t.input(WORDS.subList(0, 3)));
            t.collect(counts);
            t.runBatches(3);
            JavaRDD<StateVersion<String, Integer>> state = stateOf(counts).stateVersions(Time.ofMillis(3000))
                    .orElseThrow();
            partitions = new ArrayList<>(state.map(StateRecoverySeamTest::encode).collect());
        }
        assertEquals(3, partitions.size(), "one snapshot per state partition");
        try (StreamTester t = new StreamTester()) {
            t.clock().setTime(3000); // the restarted context's first batch is at 4 s
            MapWithStateDStream<String, Integer, Integer, String> counts = pipeline(t.input(WORDS.subList(3, 6)));
            JavaRDD<StateVersion<String, Integer>> restored = t.sparkContext()
                    .parallelize(partitions, partitions.size()).map(StateRecoverySeamTest::decode);
            t.context().lifecycle.continueFrom(Recovery.none().withState("counts", Time.ofMillis(3000), restored));
            Collected<String> out = t.collect(counts);
            t.runBatches(3);
            assertEquals(multisets(expected), out.unordered());
            assertEquals(multisets(List.of(List.of("a=4", "b timed out at 1"), List.of(), List.of("c=3"))),
                    out.unordered(), "b, updated at 1 s, times out at 4 s: the first batch past 1 s + 2.5 s");
        }
    }
}
