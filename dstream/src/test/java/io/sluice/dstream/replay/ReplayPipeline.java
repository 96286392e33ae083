package io.sluice.dstream.replay;

import io.sluice.dstream.DStream;
import io.sluice.dstream.DStreamLike;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.Replay;
import io.sluice.dstream.StreamingContext;
import io.sluice.rdd.Time;
import io.sluice.state.StateSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.spark.api.java.Optional;
import scala.Tuple2;

/**
 * The recording and the pipeline the replay tests run: "ts,key" lines over twelve 1 s batches, out of order
 * within a lateness of 1.5 s, one line later than that and one without a timestamp; a 3 s window count, a
 * mapWithState running count with a 2 s timeout (and its snapshots), updateStateByKey, and a join. Every
 * output's batches are kept as sorted text, by batch time.
 */
final class ReplayPipeline {
    static final long BASE = 1_764_547_200_000L; // 2025-12-01T00:00:00Z, on the 1 s grid
    static final Duration INTERVAL = Duration.ofSeconds(1);
    static final Duration LATENESS = Duration.ofMillis(1500);

    /** Offsets from BASE and keys, in recorded order. */
    private static final String[] LINES = {"100,a", "300,b", "900,a", "1200,a", "1100,b", "2500,c", "1900,a",
        "3100,a", "4200,b", "4100,a", "5300,c", "2000,b", "6400,a", "no timestamp here", "9800,c", "10100,a",
        "12000,b"};

    final Map<String, Map<Long, List<String>>> outputs = new ConcurrentSkipListMap<>();

    static Path writeRecording(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String l : LINES) {
            int comma = l.indexOf(',');
            lines.add(comma < 0 ? l : (BASE + Long.parseLong(l.substring(0, comma))) + l.substring(comma));
        }
        Path file = dir.resolve("recording/log-0.txt");
        Files.createDirectories(file.getParent());
        Files.write(file, lines);
        return file.getParent();
    }

    void build(StreamingContext ctx, Path recording) {
        DStream<String> lines = Replay.textFiles(ctx, recording.toString(),
                Replay.timestampColumn(0, ",", "epochMillis"), LATENESS);
        PairDStream<String, Integer> pairs = lines.mapToPair(l -> new Tuple2<>(l.split(",")[1], 1));
        PairDStream<String, Integer> windowed = pairs.reduceByKeyAndWindow(Integer::sum, Duration.ofSeconds(3));
        keep("window", windowed);
        var counts = pairs.mapWithState(StateSpec.<String, Integer, Integer, String>function((key, one, state) -> {
            if (state.isTimingOut()) {
                return key + " timed out at " + state.get();
            }
            int n = (state.exists() ? state.get() : 0) + one.orElse(0);
            state.update(n);
            return key + "=" + n;
        }).timeout(Duration.ofSeconds(2))).name("running");
        keep("mapWithState", counts);
        keep("snapshots", counts.stateSnapshots());
        PairDStream<String, Integer> totals = pairs.updateStateByKey(
                (List<Integer> values, Optional<Integer> state) -> Optional.of(state.orElse(0) + values.size()))
                .name("totals");
        keep("updateStateByKey", totals);
        keep("join", pairs.reduceByKey(Integer::sum).join(windowed));
    }

    private void keep(String name, DStreamLike<?, ?> stream) {
        Map<Long, List<String>> batches = outputs.computeIfAbsent(name, n -> new ConcurrentSkipListMap<>());
        stream.foreachRDD((rdd, time) -> {
            List<String> rows = new ArrayList<>();
            for (Object o : rdd.collect()) {
                rows.add(String.valueOf(o));
            }
            rows.sort(null);
            if (batches.put(time.milliseconds(), rows) != null) {
                throw new AssertionError(name + " output batch " + time + " twice");
            }
        });
    }

    /** Each output's batches, by batch time (a copy). */
    Map<String, Map<Long, List<String>>> snapshot() {
        Map<String, Map<Long, List<String>>> copy = new TreeMap<>();
        outputs.forEach((k, v) -> copy.put(k, new TreeMap<>(v)));
        return copy;
    }

    static Time batch(int k) {
        return new Time(BASE + k * 1000L);
    }
}
