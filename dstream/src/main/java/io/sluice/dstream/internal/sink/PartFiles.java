package io.sluice.dstream.internal.sink;

import io.sluice.rdd.internal.Jobs;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;

/**
 * Text part files on the local file system, written straight from the tasks: each partition becomes {@code
 * part-NNNNN} (one line per element, its {@code toString}), as Spark's {@code saveAsTextFile} lays them out, but
 * without Hadoop's output committer (and without Spark's closure cleaning, see {@link Jobs}): no job configuration shipped with every task, no {@code _temporary}
 * directories, and no {@code chmod} process per file (Hadoop's local file system spawns one when its native
 * library is missing). A task attempt writes a hidden file and renames it into place, so a retried or
 * speculative attempt replaces the part rather than mixing with it. The directory is made atomic by {@link
 * BatchFileCommit}, which gives each batch its own staging directory.
 */
final class PartFiles {
    private PartFiles() {
    }

    /** Writes every partition of {@code rdd} into {@code directory}, then its {@code _SUCCESS} marker. */
    static void write(JavaRDD<?> rdd, Path directory) throws IOException {
        String dir = directory.toString();
        Jobs.eachPartition(rdd.rdd(), (task, elements) -> writePart(Path.of(dir), task, elements));
        Files.createDirectories(directory);
        Files.write(directory.resolve("_SUCCESS"), new byte[0]);
    }

    private static boolean writePart(Path directory, TaskContext task, Iterator<?> elements) throws IOException {
        String part = String.format("part-%05d", task.partitionId());
        Files.createDirectories(directory);
        Path attempt = directory.resolve("." + part + "-" + task.taskAttemptId());
        try (Writer out = Files.newBufferedWriter(attempt, StandardCharsets.UTF_8)) {
            while (elements.hasNext()) {
                out.write(elements.next().toString()); // null fails, as in Spark
                out.write('\n');
            }
        }
        Files.move(attempt, directory.resolve(part), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        return true;
    }
}
