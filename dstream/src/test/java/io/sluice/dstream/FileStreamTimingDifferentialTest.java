package io.sluice.dstream;

import static io.sluice.dstream.testing.Differential.Order.ORDERED;

import io.sluice.dstream.testing.Differential;
import io.sluice.testkit.Collected;
import io.sluice.testkit.StreamTester;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file stream takes each file in the batch in which it appears, batch for batch as Spark Streaming: the first
 * batch whose time is at or after the file's modification time (files moved into the directory complete, as
 * Spark's contract asks), not one batch later.
 */
class FileStreamTimingDifferentialTest {
    @TempDir
    Path dir;

    @Test
    void eachFileIsReadInTheBatchInWhichItAppears() throws Exception {
        write("a.txt", 1000, "a1\na2\n");     // exactly at batch 1000
        write("b.txt", 1500, "b1\n");         // between batches: batch 2000
        write("c.txt", 2999, "c1\n");         // just before batch 3000
        List<List<String>> none = List.of(List.of(), List.of(), List.of());
        String directory = dir.toString();
        Differential.compareIn(none, List.<List<String>>of(), ORDERED,
                (ctx, a, b) -> a.union(ctx.textFileStream(directory)),
                (ctx, a, b) -> a.union(ctx.textFileStream(directory)));
        try (StreamTester t = new StreamTester()) { // and what both gave: no batch is empty for want of a wait
            Collected<String> out = t.collect(t.context().textFileStream(directory));
            t.runBatches(4);
            out.assertBatches(List.of(List.of("a1", "a2"), List.of("b1"), List.of("c1"), List.of()));
        }
    }

    private void write(String name, long modified, String text) throws Exception {
        Path file = Files.writeString(dir.resolve(name), text);
        Files.setLastModifiedTime(file, FileTime.fromMillis(modified));
    }
}
