package io.sluice.dstream.recovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What the chaos run asserts about its output directories, against the failure-free run's and against the input.
 * Which batch a record falls in depends on timing in both runs, so batches are compared by what must not depend
 * on it: the union of the records saved (each input record exactly once), the union of mapWithState's emitted
 * running totals (per key exactly 1, 2, ..., its count: a record counted twice or lost shows), the final state
 * (the count per key), and per key the sum of the windowed counts (each record in exactly
 * {@link ChaosApp#WINDOW_BATCHES} windows, as the run ends with empty batches).
 */
final class ChaosCheck {
    private static final Pattern COMMITTED = Pattern.compile("(records|running|state|window)-\\d+\\.txt");

    private ChaosCheck() {
    }

    /** The problems found (empty when the outputs agree), with a few examples each. */
    static List<String> compare(Path chaos, Path clean, long socketLines, long files) throws IOException {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> input = ChaosInput.records(socketLines, files);
        Map<String, Long> totals = new TreeMap<>();
        input.keySet().forEach(r -> totals.merge(ChaosInput.key(r), 1L, Long::sum));
        Map<String, Integer> running = new HashMap<>();
        Map<String, Long> window = new TreeMap<>();
        totals.forEach((k, n) -> {
            for (long i = 1; i <= n; i++) {
                running.put("(" + k + "," + i + ")", 1);
            }
            window.put(k, n * ChaosApp.WINDOW_BATCHES);
        });
        for (Path out : List.of(chaos, clean)) {
            String run = out.getParent().getFileName().toString();
            for (String name : DriverKillTest.listNames(out)) {
                if (!COMMITTED.matcher(name).matches()) {
                    problems.add(run + ": not a committed batch directory: " + name);
                }
            }
            same(problems, run + ": records saved vs the input", input, lines(out, "records-"));
            same(problems, run + ": running totals emitted vs 1..n per key", running, lines(out, "running-"));
            same(problems, run + ": final state vs the count per key", totals, finalState(out));
            same(problems, run + ": windowed counts summed per key vs " + ChaosApp.WINDOW_BATCHES + " x the count",
                    window, windowSums(out));
        }
        same(problems, "running totals: chaos vs failure-free", lines(clean, "running-"), lines(chaos, "running-"));
        same(problems, "final state: chaos vs failure-free", finalState(clean), finalState(chaos));
        return problems;
    }

    /** How often each line occurs in the part files of the batch directories named {@code prefix<t>.txt}. */
    static Map<String, Integer> lines(Path out, String prefix) throws IOException {
        Map<String, Integer> seen = new HashMap<>();
        for (String name : DriverKillTest.listNames(out)) {
            if (name.startsWith(prefix) && COMMITTED.matcher(name).matches()) {
                for (String part : DriverKillTest.listNames(out.resolve(name))) {
                    if (part.startsWith("part-")) {
                        for (String line : Files.readAllLines(out.resolve(name).resolve(part))) {
                            seen.merge(line, 1, Integer::sum);
                        }
                    }
                }
            }
        }
        return seen;
    }

    /** The state saved after the newest batch. */
    static Map<String, Long> finalState(Path out) throws IOException {
        long newest = batchTimes(out, "state-").stream().mapToLong(Long::longValue).max().orElse(-1);
        return newest < 0 ? Map.of() : DriverKillTest.readCounts(out.resolve("state-" + newest + ".txt"));
    }

    private static Map<String, Long> windowSums(Path out) throws IOException {
        Map<String, Long> sums = new TreeMap<>();
        for (long t : batchTimes(out, "window-")) {
            DriverKillTest.readCounts(out.resolve("window-" + t + ".txt"))
                    .forEach((k, v) -> sums.merge(k, v, Long::sum));
        }
        sums.values().removeIf(v -> v == 0);
        return sums;
    }

    static List<Long> batchTimes(Path out, String prefix) throws IOException {
        List<Long> times = new ArrayList<>();
        for (String name : DriverKillTest.listNames(out)) {
            if (name.startsWith(prefix) && COMMITTED.matcher(name).matches()) {
                times.add(Long.parseLong(name.substring(prefix.length(), name.length() - ".txt".length())));
            }
        }
        return times;
    }

    /** Adds a problem naming up to five entries that differ, if the maps differ. */
    private static <V> void same(List<String> problems, String what, Map<String, V> expected, Map<String, V> actual) {
        if (expected.equals(actual)) {
            return;
        }
        List<String> diff = new ArrayList<>();
        int differing = 0;
        for (String k : new java.util.TreeSet<>(union(expected, actual))) {
            if (!Objects.equals(expected.get(k), actual.get(k))) {
                if (diff.size() < 5) {
                    diff.add(k + ": expected " + expected.get(k) + ", found " + actual.get(k));
                }
                differing++;
            }
        }
        problems.add(what + ": " + differing + " entries differ, e.g. " + diff);
    }

    private static List<String> union(Map<String, ?> a, Map<String, ?> b) {
        List<String> keys = new ArrayList<>(a.keySet());
        keys.addAll(b.keySet());
        return keys;
    }
}
