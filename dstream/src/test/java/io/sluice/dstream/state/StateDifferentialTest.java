package io.sluice.dstream.state;

import static io.sluice.dstream.testing.Differential.Order.UNORDERED;
import static io.sluice.dstream.testing.Differential.compare;

import io.sluice.dstream.testing.OnEachStateBackend;
import io.sluice.state.State;
import io.sluice.state.StateSpec;
import io.sluice.testkit.SharedSpark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.Optional;
import org.apache.spark.api.java.function.Function2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import scala.Option;
import scala.Tuple2;

/**
 * mapWithState and updateStateByKey against Spark Streaming 4.2.0 on the same input, batch for batch (without
 * timeouts, where the semantics are equal). Both sides get a checkpoint directory (Spark Streaming requires
 * one for state), and the run is long enough for a reliable lineage cut after the tenth batch.
 */
class StateDifferentialTest extends OnEachStateBackend {
    /** 13 batches of words over 12 keys, some batches empty. */
    private static final List<List<String>> WORDS = words();

    @TempDir
    Path checkpoints;
    private Option<String> before;

    private static List<List<String>> words() {
        Random random = new Random(42);
        List<List<String>> batches = new ArrayList<>();
        for (int b = 0; b < 13; b++) {
            List<String> batch = new ArrayList<>();
            int n = b % 5 == 3 ? 0 : 5 + random.nextInt(20);
            for (int i = 0; i < n; i++) {
                batch.add("k" + random.nextInt(12));
            }
            batches.add(batch);
        }
        return batches;
    }

    @BeforeEach
    void checkpointDirectory() {
        before = SharedSpark.context().sc().checkpointDir();
        SharedSpark.context().setCheckpointDir(checkpoints.toString());
    }

    @AfterEach
    void restoreCheckpointDirectory() {
        SharedSpark.context().sc().checkpointDir_$eq(before);
    }

    private static final Function2<List<Integer>, Optional<Integer>, Optional<Integer>> SUM_OR_DROP_AT_7 =
            (values, state) -> {
                int sum = state.orElse(0);
                for (int v : values) {
                    sum += v;
                }
                return sum >= 7 ? Optional.empty() : Optional.of(sum);
            };

    @Test
    void updateStateByKeyMatchesSparkStreaming() {
        compare(WORDS, UNORDERED,
                s -> s.mapToPair(w -> new Tuple2<>(w, 1)).updateStateByKey(SUM_OR_DROP_AT_7),
                s -> s.mapToPair(w -> new Tuple2<>(w, 1)).updateStateByKey(SUM_OR_DROP_AT_7));
    }

    @Test
    void updateStateByKeyWithInitialStateMatchesSparkStreaming() {
        JavaPairRDD<String, Integer> initial = SharedSpark.context().parallelizePairs(
                List.of(new Tuple2<>("k1", 5), new Tuple2<>("zz", 1)));
        compare(WORDS, UNORDERED,
                s -> s.mapToPair(w -> new Tuple2<>(w, 1))
                        .updateStateByKey(SUM_OR_DROP_AT_7, new org.apache.spark.HashPartitioner(3), initial),
                s -> s.mapToPair(w -> new Tuple2<>(w, 1))
                        .updateStateByKey(SUM_OR_DROP_AT_7, new org.apache.spark.HashPartitioner(3), initial));
    }

    /** Counts, emitting (key, count); removes a key when its count reaches 4 (so it starts over). */
    private static Tuple2<String, Integer> countSluice(String key, Optional<Integer> one, State<Integer> state) {
        int count = state.getOption().orElse(0) + one.get();
        if (count >= 4) {
            state.remove();
        } else {
            state.update(count);
        }
        return new Tuple2<>(key, count);
    }

    private static Tuple2<String, Integer> countSpark(String key, Optional<Integer> one,
            org.apache.spark.streaming.State<Integer> state) {
        int count = (state.exists() ? state.get() : 0) + one.get();
        if (count >= 4) {
            state.remove();
        } else {
            state.update(count);
        }
        return new Tuple2<>(key, count);
    }

    @Test
    void mapWithStateOutputMatchesSparkStreaming() {
        compare(WORDS, UNORDERED,
                s -> s.mapToPair(w -> new Tuple2<>(w, 1))
                        .mapWithState(StateSpec.function(StateDifferentialTest::countSluice).numPartitions(3)),
                s -> s.mapToPair(w -> new Tuple2<>(w, 1))
                        .mapWithState(org.apache.spark.streaming.StateSpec
                                .function(StateDifferentialTest::countSpark).numPartitions(3)));
    }

    @Test
    void mapWithStateSnapshotsWithInitialStateMatchSparkStreaming() {
        JavaPairRDD<String, Integer> initial = SharedSpark.context().parallelizePairs(
                List.of(new Tuple2<>("k2", 2), new Tuple2<>("zz", 1)));
        compare(WORDS, UNORDERED,
                s -> s.mapToPair(w -> new Tuple2<>(w, 1))
                        .mapWithState(StateSpec.function(StateDifferentialTest::countSluice).initialState(initial))
                        .stateSnapshots(),
                s -> s.mapToPair(w -> new Tuple2<>(w, 1))
                        .mapWithState(org.apache.spark.streaming.StateSpec
                                .function(StateDifferentialTest::countSpark).initialState(initial))
                        .stateSnapshots());
    }
}
