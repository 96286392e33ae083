package io.sluice.dstream.source.internal.file;

import java.io.Serializable;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.CollectionAccumulator;

/**
 * What the tasks of one file-stream batch report back: lines read per file, and the bad lines they skipped or
 * repaired. All are keyed (file, and file with line number), so a task that runs twice (a retry, or a second
 * output operation over the same batch) counts nothing twice. Known once the batch's jobs ran.
 */
public final class BatchCounters {
    /** A line a task skipped or repaired; line -1 stands for a whole file (one that disappeared). */
    public record BadLine(String path, long line, String problem) implements Serializable {
    }

    private static final Comparator<BadLine> FIRST = Comparator.comparing(BadLine::path)
            .thenComparingLong(BadLine::line);

    private final CollectionAccumulator<String> readCounts;
    private final CollectionAccumulator<BadLine> skippedLines;
    private final CollectionAccumulator<BadLine> repairedLines;
    private final Set<BadLine> skippedOnDriver = new HashSet<>();
    private boolean warned;

    BatchCounters(JavaSparkContext sc, String name) {
        this.readCounts = sc.sc().collectionAccumulator(name + " lines");
        this.skippedLines = sc.sc().collectionAccumulator(name + " skipped");
        this.repairedLines = sc.sc().collectionAccumulator(name + " repaired");
    }

    /** Tasks add {@code path + "=" + lines} once they read a whole file (repaired lines included). */
    public CollectionAccumulator<String> readCounts() {
        return readCounts;
    }

    /** Tasks add each bad line they skip. */
    public CollectionAccumulator<BadLine> skippedLines() {
        return skippedLines;
    }

    /** Tasks add each line they repair (and keep). */
    public CollectionAccumulator<BadLine> repairedLines() {
        return repairedLines;
    }

    /** True the first time only: the batch's warning is logged once, however many outputs read the stream. */
    synchronized boolean firstWarning() {
        boolean first = !warned;
        warned = true;
        return first;
    }

    synchronized void skipOnDriver(BadLine file) {
        skippedOnDriver.add(file);
    }

    public long records() {
        Map<String, Long> perFile = new HashMap<>();
        for (String entry : List.copyOf(readCounts.value())) {
            int eq = entry.lastIndexOf('=');
            perFile.merge(entry.substring(0, eq), Long.parseLong(entry.substring(eq + 1)), Math::max);
        }
        return perFile.values().stream().mapToLong(Long::longValue).sum();
    }

    public synchronized long skipped() {
        return skippedSet().size();
    }

    public long repaired() {
        return new HashSet<>(List.copyOf(repairedLines.value())).size();
    }

    /** The first bad line (by file, then line), skipped or repaired, as "file line n ..."; null if none. */
    public synchronized String firstProblem() {
        Set<BadLine> all = skippedSet();
        all.addAll(List.copyOf(repairedLines.value()));
        return all.stream().min(FIRST).map(b -> b.line() < 0 ? b.problem() : b.path() + " " + b.problem()).orElse(null);
    }

    private Set<BadLine> skippedSet() {
        Set<BadLine> all = new HashSet<>(skippedOnDriver);
        all.addAll(List.copyOf(skippedLines.value()));
        return all;
    }
}
