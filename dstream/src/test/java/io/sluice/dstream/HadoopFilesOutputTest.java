package io.sluice.dstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.StreamTester;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * saveAsHadoopFiles and saveAsNewAPIHadoopFiles, used as Spark Streaming's documentation shows: one directory per
 * batch named {@code prefix-<batch ms>.suffix}, written by the output format with the given configuration, and
 * committed like saveAsTextFiles (an earlier attempt's staging directory is replaced, never merged).
 */
class HadoopFilesOutputTest {
    private static final List<List<String>> WORDS = List.of(List.of("a", "b", "a"), List.of(), List.of("c"));
    private static final String SEPARATOR = "mapreduce.output.textoutputformat.separator";

    @TempDir
    Path dir;

    @Test
    void oldApiOutputFormatWritesEachBatchOnceWithItsJobConf() throws Exception {
        String prefix = dir.resolve("counts").toString();
        // what a crashed attempt of batch 1000 left: the commit must replace it, not add to it
        Path leftover = Files.createDirectories(dir.resolve(".counts-1000.txt.staging"));
        Files.writeString(leftover.resolve("part-00009"), "stale\t99\n");
        try (StreamTester t = new StreamTester()) {
            JobConf conf = new JobConf(t.context().sparkContext().hadoopConfiguration());
            conf.set(SEPARATOR, "=");
            counts(t).saveAsHadoopFiles(prefix, "txt", String.class, Integer.class,
                    org.apache.hadoop.mapred.TextOutputFormat.class, conf);
            t.runBatches(3);
        }
        assertEquals(List.of("counts-1000.txt", "counts-2000.txt", "counts-3000.txt"), entries(dir));
        assertEquals(List.of("a=2", "b=1"), lines(dir.resolve("counts-1000.txt")));
        assertEquals(List.of(), lines(dir.resolve("counts-2000.txt")));
        assertEquals(List.of("c=1"), lines(dir.resolve("counts-3000.txt")));
    }

    @Test
    void newApiOutputFormatWritesEachBatchWithItsConfiguration() throws Exception {
        String prefix = dir.resolve("counts").toString();
        try (StreamTester t = new StreamTester()) {
            Configuration conf = new Configuration(t.context().sparkContext().hadoopConfiguration());
            conf.set(SEPARATOR, ",");
            counts(t).saveAsNewAPIHadoopFiles(prefix, "", String.class, Integer.class,
                    org.apache.hadoop.mapreduce.lib.output.TextOutputFormat.class, conf);
            PairDStream<String, Integer> again = counts(t);
            again.saveAsNewAPIHadoopFiles(dir.resolve("default").toString(), "out", String.class, Integer.class,
                    org.apache.hadoop.mapreduce.lib.output.TextOutputFormat.class);
            t.runBatches(3);
        }
        assertEquals(List.of("counts-1000", "counts-2000", "counts-3000", "default-1000.out", "default-2000.out",
                "default-3000.out"), entries(dir));
        assertEquals(List.of("a,2", "b,1"), lines(dir.resolve("counts-1000")));
        assertEquals(List.of("c,1"), lines(dir.resolve("counts-3000")));
        assertEquals(List.of("a\t2", "b\t1"), lines(dir.resolve("default-1000.out"))); // the format's own default
    }

    private static PairDStream<String, Integer> counts(StreamTester t) {
        return t.input(WORDS).mapToPair(w -> new Tuple2<>(w, 1)).reduceByKey(Integer::sum);
    }

    /** Every entry of the directory, hidden staging directories included. */
    private static List<String> entries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The lines of a batch's part files, sorted (a shuffle's partitions hold the keys in any order). */
    private static List<String> lines(Path batchDir) throws IOException {
        TreeSet<String> all = new TreeSet<>();
        try (Stream<Path> s = Files.list(batchDir)) {
            for (Path part : s.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
                all.addAll(Files.readAllLines(part));
            }
        }
        return List.copyOf(all);
    }
}
