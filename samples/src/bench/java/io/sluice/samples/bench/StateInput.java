package io.sluice.samples.bench;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * Inputs of the state workloads, the same on both sides: an initial state of {@code keys} keys "w0" ..
 * "w{keys-1}" with count 0, generated inside the tasks of 4 partitions.
 */
final class StateInput {
    private StateInput() {
    }

    static JavaPairRDD<String, Long> initialCounts(JavaSparkContext sc, int keys) {
        List<Integer> parts = List.of(0, 1, 2, 3);
        return sc.parallelize(parts, parts.size()).flatMapToPair(p -> {
            List<Tuple2<String, Long>> out = new ArrayList<>();
            for (int k = p; k < keys; k += 4) {
                out.add(new Tuple2<>("w" + k, 0L));
            }
            return out.iterator();
        });
    }
}
