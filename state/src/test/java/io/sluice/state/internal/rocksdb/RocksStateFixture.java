package io.sluice.state.internal.rocksdb;

import io.sluice.rdd.KeyGroups;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.state.internal.MapWithStateTransition;
import io.sluice.state.internal.MappingFunction;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.checkpoint.SavedState;
import io.sluice.state.internal.checkpoint.StateFile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import scala.Tuple2;

/** The RocksDB checkpoint tests' state: one operator "counts" counting keys, its versions and checkpoints. */
final class RocksStateFixture {
    static final String OP = "counts";
    static final int KEYS = 20_000;
    static final RocksBackend ROCKS = new RocksBackend(new KeyGroups(KeyGroups.DEFAULT_COUNT));

    private RocksStateFixture() {
    }

    /** "+k" counts k, "-k" removes it; with {@code timed}, keys time out after 10 s. */
    static MapWithStateTransition<String, String, Long, String> counting(boolean timed) {
        return new MapWithStateTransition<>((time, key, op, state) -> {
            if (state.isTimingOut()) {
                return MappingFunction.NONE;
            }
            if (op.get().equals("-")) {
                state.remove();
            } else {
                state.update(state.getOption().orElse(0L) + 1);
            }
            return MappingFunction.NONE;
        }, timed ? 10_000 : 0, OP);
    }

    /** The version after the batch at {@code time} applies {@code ops} to {@code v}. */
    static StateVersion<String, Long> step(MapWithStateTransition<String, String, Long, String> transition,
            StateVersion<String, Long> v, long time, List<String> ops) {
        List<Tuple2<String, String>> records = new ArrayList<>();
        for (String op : ops) {
            records.add(new Tuple2<>(op.substring(1), op.substring(0, 1)));
        }
        return transition.apply(v, records.iterator(), time).state();
    }

    /** Every key of {@code from} to {@code to} (exclusive, step {@code by}) counted once more. */
    static List<String> counts(int from, int to, int by) {
        List<String> ops = new ArrayList<>();
        for (int k = from; k < to; k += by) {
            ops.add("+key-" + k);
        }
        return ops;
    }

    /** Each key's state and timeout time, in key order. */
    static Map<String, String> contents(StateVersion<String, Long> v) throws Exception {
        Map<String, String> m = new TreeMap<>();
        v.forEach((k, s, t) -> m.put(k, s + "@" + t));
        return m;
    }

    /** The table files among a checkpoint's files, with their lengths (what a later checkpoint builds on). */
    static HashMap<String, Long> tablesOf(List<StateFile> files) {
        HashMap<String, Long> tables = new HashMap<>();
        files.stream().filter(f -> f.kind() == StateFile.Kind.TABLE).forEach(f -> tables.put(f.path(), f.length()));
        return tables;
    }

    /** A progress checkpoint at {@code time} whose only state is "counts"'s one partition of {@code files}. */
    static Checkpoint progress(long time, List<StateFile> files) {
        return new Checkpoint(new Time(time), Duration.ofSeconds(1), new Time(0), List.of(), new Time(time + 1000),
                Map.of(OP, "mapWithState"), List.of(), List.of(new SavedState(OP, "mapWithState",
                        new Time(time), 1, KeyGroups.DEFAULT_COUNT, files).toRecord()));
    }
}
