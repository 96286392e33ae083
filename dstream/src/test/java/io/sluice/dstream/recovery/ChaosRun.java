package io.sluice.dstream.recovery;

import io.sluice.dstream.testing.LocalCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The chaos run (issue 16, not part of CI; see docs/testing.md): {@link ChaosApp} on a multi-process
 * local-cluster, its driver killed {@code chaos.driverKills} times (20) and one of its executors
 * {@code chaos.executorKills} times (10) with {@code kill -9} (batches of {@code chaos.intervalMs}, 5000), in a
 * seeded random order, each at a random point
 * (after 0 to 15 progress events: batch submitted, output written, batch completed); then a failure-free run of
 * the same input, and {@link ChaosCheck} compares the two. Prints, per kill, the recovery time (from the kill to
 * the completion of the first batch whose time is after the kill) and the batches until the total delay is
 * back within a second of the delay before the first kill; exits 1 if the outputs differ.
 *
 * <p>A socket source loses, in any engine, the lines a receiver read but had not stored when it died: the
 * write-ahead log keeps what was stored. So before each kill the feeder pauses and the run waits until batches
 * took every line sent (each is then in the log), and the kill comes after a random number of events from there:
 * the socket's logged but unprocessed lines, the files, the state and the window are all exposed to it.
 */
public final class ChaosRun {
    private static final List<String> JVM = List.of("-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final int BEFORE_FIRST_KILL = 10;
    private static final int MAX_EVENTS_BEFORE_KILL = 15;
    private static final int MAX_BATCHES_TO_NORMAL = 40;

    private record Kill(char kind, long time, int events, String at, long recoveryMs, int batchesToNormal) {
    }

    private ChaosRun() {
    }

    public static void main(String[] args) throws Exception {
        int driverKills = Integer.getInteger("chaos.driverKills", 20);
        int executorKills = Integer.getInteger("chaos.executorKills", 10);
        long seed = Long.getLong("chaos.seed", 20261205L);
        long intervalMs = Long.getLong("chaos.intervalMs", 5000);
        Path work = Path.of(System.getProperty("chaos.dir", "target/chaos")).toAbsolutePath();
        deleteRecursively(work);
        Map<String, String> env = LocalCluster.driverEnv(work);
        List<Character> plan = new ArrayList<>();
        for (int i = 0; i < driverKills + executorKills; i++) {
            plan.add(i < driverKills ? 'D' : 'E');
        }
        Random random = new Random(seed);
        Collections.shuffle(plan, random);
        System.out.println("chaos: kill plan " + plan + " (seed " + seed + ")");

        List<Kill> kills = new ArrayList<>();
        long lines;
        long files;
        long normal;
        try (ChaosInput.Feeder feeder = new ChaosInput.Feeder(20, 100);
                ChaosDriver run = new ChaosDriver(work.resolve("chaos"), env, feeder.port(), JVM, intervalMs)) {
            run.start();
            ChaosInput.FileWriter writer = null;
            List<Long> delays = new ArrayList<>();
            while (delays.size() < BEFORE_FIRST_KILL || !run.checkpointed()) {
                String line = run.next();
                if (writer == null && line.startsWith("submitted ")) { // files newer than the stream's start
                    writer = new ChaosInput.FileWriter(run.input(), work.resolve("chaos-staging"), 3000,
                            Long.MAX_VALUE);
                }
                if (line.startsWith("completed ")) {
                    delays.add(ChaosDriver.delay(line));
                }
            }
            normal = median(delays.subList(delays.size() / 2, delays.size()));
            long threshold = normal + 1000;
            System.out.println("chaos: normal total delay " + normal + " ms (median of batches "
                    + (delays.size() / 2 + 1) + ".." + delays.size() + "), back to normal at <= " + threshold + " ms");
            for (char kind : plan) {
                long sent = feeder.pause();
                for (int batches = 0; run.socketTaken() < sent; ) { // every line sent in a batch, so in the log
                    if (run.next().startsWith("completed ") && ++batches > MAX_BATCHES_TO_NORMAL) {
                        throw new AssertionError("batches took " + run.socketTaken() + " of the " + sent
                                + " lines sent, " + MAX_BATCHES_TO_NORMAL + " batches after the feeder paused");
                    }
                }
                if (kind == 'E') {
                    while (run.executors().size() < 2) { // a replaced executor may still be starting
                        run.next();
                    }
                }
                int events = random.nextInt(MAX_EVENTS_BEFORE_KILL + 1);
                String at = "quiet";
                for (int i = 0; i < events; i++) {
                    at = run.next();
                }
                long killed = System.currentTimeMillis();
                if (kind == 'D') {
                    run.killDriver();
                    feeder.drop();
                    run.start();
                    feeder.resume();
                } else {
                    List<ProcessHandle> executors = run.executors();
                    ProcessHandle victim = executors.get(random.nextInt(executors.size()));
                    victim.destroyForcibly();
                    victim.onExit().join();
                }
                long recovery = -1;
                int batches = 0;
                int toNormal = -1;
                while (toNormal < 0 && batches < MAX_BATCHES_TO_NORMAL) {
                    String line = run.next();
                    if (!line.startsWith("completed ") || ChaosDriver.time(line) <= killed) {
                        continue;
                    }
                    batches++;
                    if (recovery < 0) {
                        recovery = ChaosDriver.time(line) + ChaosDriver.delay(line) - killed;
                        feeder.resume(); // after an executor kill: its connection's end was seen by now
                    }
                    if (ChaosDriver.delay(line) <= threshold) {
                        toNormal = batches;
                    }
                }
                Kill kill = new Kill(kind, killed, events, at, recovery, toNormal);
                kills.add(kill);
                System.out.println("chaos: kill " + kills.size() + "/" + plan.size() + " " + kill);
            }
            lines = feeder.finish();
            files = writer == null ? 0 : writer.finish();
            run.finish(lines, files);
            if (writer != null) {
                writer.close();
            }
            System.out.println("chaos: input " + lines + " socket lines, " + files + " files; feeder connections "
                    + feeder.connections() + "; failed batches " + run.failedBatches());
        }

        try (ChaosInput.Feeder feeder = new ChaosInput.Feeder(200, 100);
                ChaosDriver clean = new ChaosDriver(work.resolve("clean"), env, feeder.port(), JVM, intervalMs)) {
            feeder.limit(lines);
            clean.start();
            ChaosInput.FileWriter writer = null;
            while (writer == null) {
                if (clean.next().startsWith("submitted ")) {
                    writer = new ChaosInput.FileWriter(clean.input(), work.resolve("clean-staging"), 500, files);
                }
            }
            feeder.resume();
            clean.finish(lines, files);
            writer.close();
            System.out.println("chaos: failure-free run done; failed batches " + clean.failedBatches());
        }

        List<String> problems = ChaosCheck.compare(work.resolve("chaos").resolve("out"),
                work.resolve("clean").resolve("out"), lines, files);
        report(kills, normal, intervalMs, lines, files, problems);
        System.exit(problems.isEmpty() ? 0 : 1);
    }

    private static void report(List<Kill> kills, long normal, long intervalMs, long lines, long files,
            List<String> problems) {
        for (char kind : new char[] {'D', 'E'}) {
            List<Long> recovery = kills.stream().filter(k -> k.kind() == kind).map(Kill::recoveryMs).sorted().toList();
            List<Integer> toNormal = kills.stream().filter(k -> k.kind() == kind).map(Kill::batchesToNormal)
                    .sorted().toList();
            if (recovery.isEmpty()) {
                continue;
            }
            System.out.println("chaos: " + (kind == 'D' ? "driver" : "executor") + " kills " + recovery.size()
                    + ": recovery ms median " + median(recovery) + ", max " + recovery.get(recovery.size() - 1)
                    + " (all " + recovery + "); batches until the delay is normal: median "
                    + toNormal.get(toNormal.size() / 2) + ", max " + toNormal.get(toNormal.size() - 1)
                    + " (all " + toNormal + ", -1: not within " + MAX_BATCHES_TO_NORMAL + ")");
        }
        System.out.println("chaos: batch interval " + intervalMs + " ms, normal delay " + normal + " ms; input "
                + lines + " socket lines and " + files + " files of " + ChaosInput.LINES_PER_FILE + " lines");
        if (problems.isEmpty()) {
            System.out.println("chaos: PASS: the output and the final state equal the failure-free run's");
        } else {
            problems.forEach(p -> System.out.println("chaos: FAIL: " + p));
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Per batch time, the records each source reported (the last report wins: a batch run again replaces it). */
    static final class Ledger {
        private final TreeMap<Long, long[]> batches = new TreeMap<>();

        /**
         * A driver started: batches after the recovered one run again (or, without a checkpoint, all). Those up
         * to it completed, as its checkpoint proves, even when the driver was killed before it printed so.
         */
        void restart(long recovered) {
            batches.tailMap(recovered, false).clear();
            batches.headMap(recovered, true).values().forEach(b -> b[2] = 1);
        }

        void report(long time, long socket, long files, boolean completed) {
            batches.put(time, new long[] {socket, files, completed ? 1 : 0});
        }

        long socket() {
            return batches.values().stream().mapToLong(b -> b[0]).sum();
        }

        boolean allCompleted(long socket, long files) {
            return socket() == socket && batches.values().stream().mapToLong(b -> b[1]).sum() == files
                    && batches.values().stream().allMatch(b -> b[2] == 1);
        }
    }
}
