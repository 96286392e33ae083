package io.sluice.dstream.source.internal.file;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.CollectionAccumulator;

/**
 * What the tasks of one file-stream batch report back: lines read per file and the bad records they skipped.
 * Both are keyed (file, and file with line number), so a task that runs twice (a retry, or a second output
 * operation over the same batch) counts nothing twice. Known once the batch's jobs ran.
 */
public final class BatchCounters {
    private final CollectionAccumulator<String> readCounts;
    private final CollectionAccumulator<String> skippedKeys;
    private final Set<String> skippedOnDriver = new HashSet<>();

    BatchCounters(JavaSparkContext sc, String name) {
        this.readCounts = sc.sc().collectionAccumulator(name + " lines");
        this.skippedKeys = sc.sc().collectionAccumulator(name + " skipped");
    }

    /** Tasks add {@code path + "=" + lines} once they read a whole file. */
    public CollectionAccumulator<String> readCounts() {
        return readCounts;
    }

    /** Tasks add {@code path + "#" + line} for each bad line they skip. */
    public CollectionAccumulator<String> skippedKeys() {
        return skippedKeys;
    }

    synchronized void skipOnDriver(String key) {
        skippedOnDriver.add(key);
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
        Set<String> all = new HashSet<>(skippedOnDriver);
        all.addAll(List.copyOf(skippedKeys.value()));
        return all.size();
    }
}
