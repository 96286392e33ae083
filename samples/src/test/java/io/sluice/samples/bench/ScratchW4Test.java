package io.sluice.samples.bench;

import io.sluice.dstream.DStream;
import io.sluice.dstream.testing.SharedSpark;
import io.sluice.dstream.testing.StreamTester;
import io.sluice.dstream.scheduler.BatchInfo;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

class ScratchW4Test {
    static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000;
    }

    @Test
    void measure() {
        String modes = System.getProperty("modes", "w1,w4");
        int batches = Integer.getInteger("batches", 10);
        for (String mode : modes.split(",")) {
            try (StreamTester t = new StreamTester()) {
                DStream<String> in = t.context().queueStream(new ArrayDeque<>(BenchRecords.batches(SharedSpark.context(), batches, 4, 400_000, 200_000)), true);
                Duration slide = in.slideDuration();
                if (mode.equals("w1")) {
                    in.mapToPair(w -> new Tuple2<>(w, 1)).reduceByKey(Integer::sum, 4).count().foreachRDD(rdd -> { rdd.collect(); });
                } else if (mode.startsWith("w4")) {
                    int win = mode.equals("w4") ? 5 : Integer.parseInt(mode.substring(3));
                    in.mapToPair(w -> new Tuple2<>(w, 1)).reduceByKeyAndWindow(Integer::sum, (a, b) -> a - b, slide.multipliedBy(win), slide, 4, null).count().foreachRDD(rdd -> { rdd.collect(); });
                }
                List<String> out = new ArrayList<>();
                for (int b = 0; b < batches; b++) {
                    long c0 = cpu();
                    long w0 = System.nanoTime();
                    BatchInfo info = t.runBatches(1).get(0);
                    out.add((System.nanoTime() - w0) / 1_000_000 + "ms/" + (cpu() - c0) + "cpu");
                }
                System.out.println("SCRATCH " + mode + " " + out);
            }
        }
    }
}
