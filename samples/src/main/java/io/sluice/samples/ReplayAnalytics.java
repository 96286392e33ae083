package io.sluice.samples;

import io.sluice.dstream.Clock;
import io.sluice.dstream.DStream;
import io.sluice.dstream.PairDStream;
import io.sluice.dstream.Replay;
import io.sluice.dstream.StreamingContext;
import io.sluice.state.StateSpec;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import scala.Tuple2;

/**
 * Batch-window analytics over a recorded log, fast-forward: the sample writes its own recording (an access log,
 * {@code epochMillis,user,status} lines, {@code --records} per second over {@code --batches} seconds, up to
 * 500 ms out of order), then replays it through a streaming job on a replay clock, 1 s batches: a 60 s window
 * count of requests per status, and a running count per user ({@code mapWithState}), both saved per batch with
 * {@code saveAsTextFiles}. The context stops after the recording's last batch; the sample prints how fast the
 * replay ran (batches per second, and the time a day of 1 s batches would take at that speed).
 *
 * <p>Options: {@code --batches N} (default 600: ten minutes of log), {@code --records N} per batch (default
 * 1000), {@code --users N} (default 500), {@code --dir D} for the recording and the output (default a new
 * temporary directory).
 */
public final class ReplayAnalytics {
    private static final long START = 1_764_547_200_000L; // 2025-12-01T00:00:00Z

    private ReplayAnalytics() {
    }

    public static void main(String[] args) throws Exception {
        int batches = 600;
        int records = 1000;
        int users = 500;
        Path dir = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--batches" -> batches = Integer.parseInt(args[i + 1]);
                case "--records" -> records = Integer.parseInt(args[i + 1]);
                case "--users" -> users = Integer.parseInt(args[i + 1]);
                case "--dir" -> dir = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        dir = dir != null ? dir : Files.createTempDirectory("sluice-replay");
        Path recording = dir.resolve("recording");
        writeRecording(recording.resolve("access.log"), batches, records, users);
        System.out.println("recorded " + batches + " s of access log (" + (long) batches * records + " lines) in "
                + recording);

        StreamingContext ctx = StreamingContext.builder().appName("replay-analytics")
                .batchInterval(Duration.ofSeconds(1)).clock(Clock.replay()).build();
        run(ctx, recording.toString(), dir.resolve("out").toString());
        AtomicLong done = new AtomicLong();
        ctx.addStreamingListener(new io.sluice.dstream.scheduler.StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                done.incrementAndGet();
            }
        });
        long started = System.nanoTime();
        ctx.start();
        ctx.awaitTermination();
        double seconds = (System.nanoTime() - started) / 1e9;
        double perSecond = done.get() / seconds;
        System.out.printf("replayed %d batches in %.1f s: %.1f batches/s (%.0fx real time); a day of 1 s batches "
                + "would take %.1f min%n", done.get(), seconds, perSecond, perSecond, 86_400 / perSecond / 60);
        System.out.println("output per batch in " + dir.resolve("out"));
    }

    /** The job: a 60 s window count per status and a running count per user, saved per batch. */
    public static void run(StreamingContext ctx, String recording, String out) {
        DStream<String> log = Replay.textFiles(ctx, recording, Replay.timestampColumn(0, ",", "epochMillis"),
                Duration.ofMillis(500));
        PairDStream<String, Long> statuses = log.mapToPair(l -> new Tuple2<>(l.substring(l.lastIndexOf(',') + 1), 1L));
        statuses.reduceByKeyAndWindow(Long::sum, (a, b) -> a - b, Duration.ofSeconds(60), Duration.ofSeconds(1))
                .saveAsTextFiles(out + "/status-60s", "txt");
        log.mapToPair(l -> new Tuple2<>(l.split(",")[1], 1L))
                .mapWithState(StateSpec.<String, Long, Long, Tuple2<String, Long>>function((user, one, state) -> {
                    long n = (state.exists() ? state.get() : 0L) + one.orElse(0L);
                    state.update(n);
                    return new Tuple2<>(user, n);
                })).name("requests-per-user").saveAsTextFiles(out + "/user-counts", "txt");
    }

    /** {@code records} lines per second from 2025-12-01, each up to 500 ms older than the newest before it. */
    static void writeRecording(Path file, int batches, int records, int users) throws IOException {
        writeRecording(file, START, batches, records, users);
        System.out.println("recording starts at " + Instant.ofEpochMilli(START));
    }

    /** As {@link #writeRecording(Path, int, int, int)}, from {@code start} (epoch ms, a whole second). */
    public static void writeRecording(Path file, long start, int batches, int records, int users)
            throws IOException {
        Files.createDirectories(file.getParent());
        Random random = new Random(42);
        String[] statuses = {"200", "200", "200", "200", "304", "404", "500"};
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (long s = 0; s < batches; s++) {
                for (int r = 0; r < records; r++) {
                    long ts = start + s * 1000 + (r * 1000L) / records + 1;
                    long jitter = Math.min(ts - start - 1, random.nextInt(500));
                    w.write((ts - jitter) + ",u" + random.nextInt(users) + "," + statuses[random.nextInt(7)]);
                    w.newLine();
                }
            }
        }
    }
}
