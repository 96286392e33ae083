package io.sluice.samples.bench;

import java.time.Duration;

/**
 * The common settings of docs/benchmark.md: {@code local[2]}, UI off, default parallelism 4, 3 s batches,
 * 16 batches of which the first 2 are warm-up. Batches, warm-up and interval can be lowered for a quick check
 * (system properties {@code bench.batches}, {@code bench.warmup}, {@code bench.interval.ms}); such a run is not
 * {@link #standard()} and does not update docs/performance.md.
 *
 * @param inputPartitions partitions of each pre-built input RDD
 */
public record BenchSettings(String master, int defaultParallelism, int inputPartitions, int batches, int warmup,
        Duration interval) {
    public static final BenchSettings STANDARD = new BenchSettings("local[2]", 4, 4, 16, 2, Duration.ofSeconds(3));

    public BenchSettings {
        if (batches <= warmup || warmup < 0 || inputPartitions < 1 || defaultParallelism < 1 || interval.toMillis() < 1) {
            throw new IllegalArgumentException("need batches > warmup >= 0, partitions >= 1 and a positive interval;"
                    + " got batches " + batches + ", warmup " + warmup + ", interval " + interval);
        }
    }

    /** The standard settings with what the system properties override. */
    public static BenchSettings fromSystemProperties() {
        return new BenchSettings(STANDARD.master, STANDARD.defaultParallelism, STANDARD.inputPartitions,
                Integer.getInteger("bench.batches", STANDARD.batches),
                Integer.getInteger("bench.warmup", STANDARD.warmup),
                Duration.ofMillis(Long.getLong("bench.interval.ms", STANDARD.interval.toMillis())));
    }

    /** The same settings as system property arguments, to hand to a forked JVM. */
    public String[] asJvmArguments() {
        return new String[] {"-Dbench.batches=" + batches, "-Dbench.warmup=" + warmup,
            "-Dbench.interval.ms=" + interval.toMillis()};
    }

    public boolean standard() {
        return equals(STANDARD);
    }

    public int countedBatches() {
        return batches - warmup;
    }

    @Override
    public String toString() {
        return master + ", default parallelism " + defaultParallelism + ", " + inputPartitions + " input partitions, "
                + batches + " batches of " + interval.toMillis() + " ms (first " + warmup + " warm-up)";
    }
}
