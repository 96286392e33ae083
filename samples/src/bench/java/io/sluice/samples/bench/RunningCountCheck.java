package io.sluice.samples.bench;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.api.java.JavaPairRDD;

/**
 * What a keyed running count over the whole input must give on any engine, whatever order the keys' records came
 * in: the emitted records per input batch, the distinct keys, and the sum of every emitted count (a key with n
 * records emits 1..n, so n(n+1)/2). Compared as text with what samples/flink's Tally prints (the same wording), so
 * a Flink pipeline that loses, repeats or miscounts records fails the row.
 */
record RunningCountCheck(List<Long> recordsPerBatch, long keys, long countSum) {
    /** From the counts each batch emitted and the final state (key → count) of Sluice's mapWithState. */
    static RunningCountCheck of(List<Long> recordsPerBatch, JavaPairRDD<String, Long> finalState) {
        long sum = finalState.isEmpty() ? 0 : finalState.values().map(n -> n * (n + 1) / 2).reduce(Long::sum);
        return new RunningCountCheck(List.copyOf(recordsPerBatch), finalState.count(), sum);
    }

    @Override
    public String toString() {
        return "records per batch " + recordsPerBatch.stream().map(String::valueOf).collect(Collectors.joining(" "))
                + ", keys " + keys + ", sum of running counts " + countSum;
    }
}
