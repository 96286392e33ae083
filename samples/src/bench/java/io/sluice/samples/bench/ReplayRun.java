package io.sluice.samples.bench;

import io.sluice.dstream.Clock;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.StreamingContextBuilder;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.samples.ReplayAnalytics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One step of RP (issue #19's replay speed): the {@link ReplayAnalytics} job (a 60 s window count per status and a
 * {@code mapWithState} running count per user, both saved per batch with {@code saveAsTextFiles}) over a recorded
 * access log of 1,000 records per 1 s batch. Fast-forward: 3,600 batches (an hour of log) on a replay clock, from
 * {@code start()} to the end of the recording (long enough that the start, which indexes the recording, weighs far
 * less than over 600 batches, though still more than over a day). Wall clock: a recording of 20 batches that begins a
 * few seconds after now, on the system clock, from its first batch time to the completion of its last batch. The
 * figure is batches per second; Sluice only (Spark Streaming has no replay clock).
 */
final class ReplayRun implements Workload {
    static final int FAST_FORWARD_BATCHES = 3600;
    static final int WALL_CLOCK_BATCHES = 20;
    private static final int RECORDS = 1000;
    private static final int USERS = 500;
    private static final Figure FIGURE = new Figure("batches per second", "batches/s", true);

    private final String id;
    private final boolean fastForward;

    ReplayRun(String id, boolean fastForward) {
        this.id = id;
        this.fastForward = fastForward;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String description() {
        return "the replay sample's job, " + (fastForward ? "fast-forward" : "on the wall clock");
    }

    @Override
    public Figure figure() {
        return FIGURE;
    }

    @Override
    public double target() {
        return 1;
    }

    @Override
    public Measurement run(Side side, BenchSettings settings) throws Exception {
        if (side != Side.SLUICE) {
            throw new IllegalArgumentException(id + " runs on Sluice only: Spark Streaming has no replay clock");
        }
        Path dir = Files.createTempDirectory("sluice-bench-replay");
        int batches = fastForward ? FAST_FORWARD_BATCHES : WALL_CLOCK_BATCHES;
        long first = fastForward ? 1_764_547_200_000L : (System.currentTimeMillis() / 1000 + 8) * 1000;
        Path recording = dir.resolve("recording");
        ReplayAnalytics.writeRecording(recording.resolve("access.log"), first, batches, RECORDS, USERS);
        long lastBatch = first + batches * 1000L;

        StreamingContextBuilder builder = StreamingContext.builder().batchInterval(Duration.ofSeconds(1))
                .clock(fastForward ? Clock.replay() : Clock.system());
        StandardRun.sparkSettings(settings, id).forEach(builder::conf);
        StreamingContext ctx = builder.build();
        ctx.sparkContext().setLogLevel("WARN");
        ReplayAnalytics.run(ctx, recording.toString(), dir.resolve("out").toString());
        AtomicLong completed = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        CountDownLatch last = new CountDownLatch(1);
        ctx.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                long time = event.batchInfo().batchTime().milliseconds();
                if (time > first && time <= lastBatch) {
                    completed.incrementAndGet();
                    failed.addAndGet(event.batchInfo().failed() ? 1 : 0);
                }
                if (time >= lastBatch) {
                    last.countDown();
                }
            }
        });
        long started = System.nanoTime();
        ctx.start();
        if (!last.await(30, TimeUnit.MINUTES)) {
            throw new IllegalStateException(id + ": the recording's last batch did not complete in 30 minutes");
        }
        double seconds = fastForward ? (System.nanoTime() - started) / 1e9
                : (System.currentTimeMillis() - first) / 1e3;
        ctx.stop(true, false);
        if (failed.get() > 0 || completed.get() != batches) {
            throw new IllegalStateException(id + ": " + completed.get() + " of " + batches + " batches completed, "
                    + failed.get() + " failed");
        }
        double perSecond = batches / seconds;
        return new Measurement(perSecond, "-", String.format(Locale.ROOT, "%d batches of %d records in %.1f s: "
                + "%.2f batches/s; a day of 1 s batches would take %.0f min", batches, RECORDS, seconds, perSecond,
                86_400 / perSecond / 60));
    }
}
