package io.sluice.dstream.internal.sink;

import io.sluice.rdd.internal.Jobs;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;

/**
 * Text part files on the local file system, written straight from the tasks: each partition becomes {@code part-NNNNN}
 * (one line per element, its {@code toString}), as Spark's {@code saveAsTextFile} lays them out, but without Hadoop's
 * output committer (and without Spark's closure cleaning, see {@link Jobs}): no job configuration shipped with every
 * task, no {@code _temporary} directories, and no {@code chmod} process per file (Hadoop's local file system spawns
 * one when its native library is missing). A task attempt writes a hidden file and renames it into place, so a retried
 * or speculative attempt replaces the part rather than mixing with it. The directory is made atomic by {@link
 * BatchFileCommit}, which gives each batch its own staging directory: the tasks write into it, and the driver marks it
 * {@code _SUCCESS} and renames it once they all succeeded.
 */
final class PartFiles {
    private PartFiles() {
    }

    /** The task that writes one partition into {@code directory} (a path on the local file system). */
    static <T> Jobs.PartitionAction<T, Boolean> writer(Path directory) {
        String dir = directory.toString();
        return (partition, attempt, elements) -> writePart(Path.of(dir), partition, attempt, elements);
    }

    /** Once every part is written: the {@code _SUCCESS} marker (the directory exists even with no partition). */
    static void markSuccess(Path directory) throws IOException {
        Files.createDirectories(directory);
        Files.write(directory.resolve("_SUCCESS"), new byte[0]);
    }

    private static boolean writePart(Path directory, int partition, long attempt, Iterator<?> elements)
            throws IOException {
        String part = String.format("part-%05d", partition);
        Files.createDirectories(directory);
        Path file = directory.resolve("." + part + "-" + attempt);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            while (elements.hasNext()) {
                out.write(elements.next().toString()); // null fails, as in Spark
                out.write('\n');
            }
        }
        Files.move(file, directory.resolve(part), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        return true;
    }
}
