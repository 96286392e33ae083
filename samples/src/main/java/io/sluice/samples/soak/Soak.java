package io.sluice.samples.soak;

import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak: runs {@link SoakPipeline} (socket and file sources, mapWithState, a sliding window, checkpointing)
 * on the system clock for 10,000 batches of 50 ms and prints, at batch 1,000, 5,000 and 10,000, what the JVM and
 * the context hold ({@link SoakSample}), then the table and whether every measure stayed flat. The persisted RDDs
 * are measured after a full GC at the mark; the heap after a full GC at the mark and halfway through the {@code
 * --window} batches before it, the smaller of the two (what the batch in flight holds moves a single sample by up
 * to 10 MB; a leak raises both); every other measure is the largest seen over the window, since some cycle with
 * the batches (the state checkpoint chain, windows, blocks in flight). Exits with status 1 when a measure grew or
 * a batch failed.
 *
 * <p>{@code mvn -B -q -Psoak -pl samples -am verify -DskipTests [-Dsoak.args="--batches 2000"]}; options:
 * {@code --batches N} (the last mark; the others at N/10 and N/2), {@code --window N} (100), {@code
 * --interval-ms N} (50; a divisor of the window's 250 ms slide), {@code --socket-lines-per-second N} (2000),
 * {@code --lines-per-file N} (800, one file a second). A run whose batches are more than 2 s behind at a mark is
 * reported as not valid (its measures include the queued batches); one 60 s behind is stopped.
 */
public final class Soak {
    private static final Duration FILE_EVERY = Duration.ofSeconds(1);
    /** Files the feeder leaves in the directory: a minute of them, so a batch late by less still finds its files. */
    private static final int FILES_KEPT = 60;
    /** A run whose batches fall this far behind is stopped: the machine cannot keep up, nothing it measures holds. */
    private static final Duration GIVE_UP_BEHIND = Duration.ofSeconds(60);
    private static final Duration SOCKET_TICK = Duration.ofMillis(10);

    private Soak() {
    }

    public static void main(String[] args) throws Exception {
        int batches = intOption(args, "--batches", 10_000);
        int window = intOption(args, "--window", 100);
        int socketPerSecond = intOption(args, "--socket-lines-per-second", 2000);
        int linesPerFile = intOption(args, "--lines-per-file", 800);
        Duration interval = Duration.ofMillis(intOption(args, "--interval-ms", (int) SoakPipeline.INTERVAL.toMillis()));
        long[] marks = {batches / 10, batches / 2, batches};
        System.exit(run(marks, window, interval, socketPerSecond, linesPerFile) ? 0 : 1);
    }

    private static boolean run(long[] marks, int window, Duration interval, int socketPerSecond, int linesPerFile)
            throws Exception {
        Path root = Files.createTempDirectory("sluice-soak-");
        Path checkpoints = Files.createDirectory(root.resolve("checkpoint"));
        Path input = Files.createDirectory(root.resolve("input"));
        List<CountDownLatch> reached = new ArrayList<>();
        List<SoakSample> windowMax = new ArrayList<>();
        long[] heapHalfway = new long[marks.length]; // after a full GC, halfway through each mark's window
        for (int i = 0; i < marks.length; i++) {
            reached.add(new CountDownLatch(1));
            windowMax.add(null);
        }
        AtomicLong completed = new AtomicLong();
        AtomicLong gaveUpAt = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong lastDelay = new AtomicLong();
        long[][] processing = new long[marks.length][2]; // per mark, over its window: sum and max, in ms
        AtomicLong sent = new AtomicLong();
        SoakReport report = new SoakReport();
        boolean keptUp = true;
        Duration behind = Duration.ofSeconds(2);
        long started = System.nanoTime();
        ScheduledExecutorService feeders = Executors.newScheduledThreadPool(1);
        try (SocketFeeder socket = new SocketFeeder()) {
            StreamingContext ctx = StreamingContext.builder().appName("sluice-soak").master("local[2]")
                    .batchInterval(interval).conf("spark.ui.enabled", "false")
                    .conf("spark.streaming.blockInterval", "50ms").build();
            try {
                ctx.sparkContext().setLogLevel("WARN");
                ctx.checkpoint(checkpoints.toString());
                SoakPipeline pipeline = SoakPipeline.build(ctx, socket.port(), input.toString());
                ctx.addStreamingListener(new StreamingListener() {
                    @Override
                    public void onBatchCompleted(BatchCompleted event) {
                        BatchInfo info = event.batchInfo();
                        long n = completed.incrementAndGet();
                        lastDelay.set(info.totalDelay());
                        if (info.totalDelay() > GIVE_UP_BEHIND.toMillis() && gaveUpAt.compareAndSet(0, n)) {
                            reached.forEach(CountDownLatch::countDown);
                        }
                        if (info.failed()) {
                            failed.incrementAndGet();
                        }
                        for (int i = 0; i < marks.length; i++) {
                            if (n > marks[i] - window && n <= marks[i]) {
                                SoakSample s = SoakSample.measure(ctx, checkpoints, false);
                                windowMax.set(i, windowMax.get(i) == null ? s : windowMax.get(i).max(s));
                                if (n == marks[i] - window / 2) {
                                    heapHalfway[i] = SoakSample.measure(ctx, checkpoints, true).heapAfterGcBytes();
                                }
                                processing[i][0] += info.processingDelay();
                                processing[i][1] = Math.max(processing[i][1], info.processingDelay());
                                if (n == marks[i]) {
                                    reached.get(i).countDown();
                                }
                            }
                        }
                    }
                });
                FileFeeder files = new FileFeeder(input, linesPerFile, FILES_KEPT);
                int perTick = (int) Math.max(1, socketPerSecond * SOCKET_TICK.toMillis() / 1000);
                feeders.scheduleAtFixedRate(() -> sent.addAndGet(socket.send(perTick)), 0, SOCKET_TICK.toMillis(),
                        TimeUnit.MILLISECONDS);
                feeders.scheduleAtFixedRate(() -> {
                    try {
                        sent.addAndGet(files.write(System.currentTimeMillis()));
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }, 0, FILE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
                ctx.start();
                System.out.printf(Locale.ROOT, "soak: %,d batches of %d ms, marks %s, checkpoints in %s%n",
                        marks[marks.length - 1], interval.toMillis(), Arrays.toString(marks), checkpoints);
                for (int i = 0; i < marks.length; i++) {
                    reached.get(i).await();
                    if (gaveUpAt.get() > 0) {
                        System.out.printf(Locale.ROOT, "NOT VALID: stopped at batch %,d, %,d ms behind (more than "
                                + "%d s): this machine does not keep up with %d ms batches; run it on a quieter "
                                + "machine or with a longer --interval-ms%n", gaveUpAt.get(), lastDelay.get(),
                                GIVE_UP_BEHIND.toSeconds(), interval.toMillis());
                        keptUp = false;
                        break;
                    }
                    SoakSample atMark = SoakSample.measure(ctx, checkpoints, true).max(windowMax.get(i))
                            .withSmallerHeap(heapHalfway[i]);
                    report.add(marks[i], atMark);
                    System.out.printf(Locale.ROOT, "batch %,d after %d s: %s; processing over the last %d batches "
                            + "%d ms on average, at most %d ms; the batch's total delay %d ms; %,d lines sent, %,d "
                            + "counted in state, %,d in the window, %d failed batches%n",
                            marks[i], (System.nanoTime() - started) / 1_000_000_000L, atMark, window,
                            processing[i][0] / window, processing[i][1], lastDelay.get(), sent.get(),
                            pipeline.counted(), pipeline.windowed(), failed.get());
                    keptUp &= lastDelay.get() <= behind.toMillis();
                }
            } finally {
                feeders.shutdownNow();
                ctx.stop(true, false);
            }
        } finally {
            deleteRecursively(root);
        }
        System.out.println();
        System.out.println("Soak, " + machine());
        if (!report.isEmpty()) {
            System.out.println(report.table());
        }
        if (!keptUp) {
            System.out.println("NOT VALID: at a mark the batches were more than " + behind.toSeconds() + " s behind "
                    + "(the machine did not keep up with " + interval.toMillis() + " ms batches), so the measures "
                    + "include batches queued up; run it on a quieter machine or with a longer --interval-ms");
        }
        if (failed.get() > 0) {
            System.out.println(failed.get() + " batches failed");
        }
        return report.notFlat().isEmpty() && failed.get() == 0 && keptUp;
    }

    private static String machine() {
        String cpu = "unknown CPU";
        try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            cpu = lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse(cpu);
        } catch (IOException | RuntimeException e) {
            // keep "unknown CPU"
        }
        return Runtime.getRuntime().availableProcessors() + " cores, " + cpu + ", Java "
                + System.getProperty("java.version") + ", max heap " + Runtime.getRuntime().maxMemory() / (1 << 20)
                + " MB, " + ZonedDateTime.now(ZoneOffset.UTC).withNano(0);
    }

    private static int intOption(String[] args, String name, int fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return fallback;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
