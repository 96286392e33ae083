package io.sluice.rdd.internal;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkEnv;

/**
 * Directories on this JVM's local disks for data that lives as long as an executor's work and is never shared:
 * under Spark's local directories ({@code spark.local.dir}, or what the cluster manager gives an executor), which
 * Spark deletes when the executor (or, in local mode, the SparkContext) stops. Without a SparkEnv (a unit test
 * outside Spark) under the JVM's temporary directory.
 */
public final class LocalDirs {
    private static final AtomicLong NEXT = new AtomicLong();

    private LocalDirs() {
    }

    /** A new, empty directory named after {@code prefix}, spread round-robin over the local directories. */
    public static File newDirectory(String prefix) throws IOException {
        SparkEnv env = SparkEnv.get();
        File[] roots = env == null ? new File[0] : env.blockManager().diskBlockManager().localDirs();
        long n = NEXT.getAndIncrement();
        if (roots.length == 0) {
            return Files.createTempDirectory(prefix + "-").toFile();
        }
        File dir = new File(roots[(int) (n % roots.length)], prefix + "-" + java.util.UUID.randomUUID());
        Files.createDirectories(dir.toPath());
        return dir;
    }
}
