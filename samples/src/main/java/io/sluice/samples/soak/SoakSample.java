package io.sluice.samples.soak;

import io.sluice.dstream.Footprint;
import io.sluice.dstream.StreamingContext;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/**
 * What a long-running job holds at one moment: the JVM's heap after a full GC, live threads and open file
 * descriptors, the checkpoint directory's bytes and files, and the context's {@link Footprint}. The heap and
 * the persisted RDDs are measured after a full GC only (else 0): Spark forgets a persisted RDD only once it is
 * garbage, so before a GC the count includes RDDs nothing holds any more. {@link #max} merges samples taken over
 * a run of batches into the largest of each.
 */
public record SoakSample(long heapAfterGcBytes, int threads, int openFiles, long checkpointBytes,
        int checkpointFiles, int rememberedRdds, int persistedRdds, int cachedBlocks) {

    /** Measures now; {@code fullGc} collects garbage first (a full GC: slow, do it at the marks only). */
    public static SoakSample measure(StreamingContext ctx, Path checkpointDirectory, boolean fullGc) {
        long heap = 0;
        if (fullGc) {
            System.gc();
            heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        }
        long[] files = directorySize(checkpointDirectory);
        Footprint f = ctx.footprint();
        return new SoakSample(heap, ManagementFactory.getThreadMXBean().getThreadCount(), openFileDescriptors(),
                files[1], (int) files[0], f.rememberedRdds(), fullGc ? f.persistedRdds() : 0, f.cachedBlocks());
    }

    public SoakSample max(SoakSample o) {
        return new SoakSample(Math.max(heapAfterGcBytes, o.heapAfterGcBytes), Math.max(threads, o.threads),
                Math.max(openFiles, o.openFiles), Math.max(checkpointBytes, o.checkpointBytes),
                Math.max(checkpointFiles, o.checkpointFiles), Math.max(rememberedRdds, o.rememberedRdds),
                Math.max(persistedRdds, o.persistedRdds), Math.max(cachedBlocks, o.cachedBlocks));
    }

    /** This sample with the smaller of its heap and {@code heapAfterGc} (0: not measured, this one kept). */
    public SoakSample withSmallerHeap(long heapAfterGc) {
        long heap = heapAfterGc > 0 ? Math.min(heapAfterGcBytes, heapAfterGc) : heapAfterGcBytes;
        return new SoakSample(heap, threads, openFiles, checkpointBytes, checkpointFiles, rememberedRdds,
                persistedRdds, cachedBlocks);
    }

    /** The file descriptors this process has open (Linux: the entries of /proc/self/fd), -1 elsewhere. */
    static int openFileDescriptors() {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return -1;
        }
        try (Stream<Path> open = Files.list(fds)) {
            return (int) open.count() - 1; // less the one listing them
        } catch (IOException e) {
            return -1;
        }
    }

    /** Files and bytes under {@code dir}; files deleted while it walks (checkpoints are cleaned) are skipped. */
    static long[] directorySize(Path dir) {
        long[] filesAndBytes = new long[2];
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        filesAndBytes[0]++;
                        filesAndBytes[1] += attrs.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot walk " + dir, e);
        }
        return filesAndBytes;
    }
}
