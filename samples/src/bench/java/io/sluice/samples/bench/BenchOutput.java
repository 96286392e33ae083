package io.sluice.samples.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a workload's output operation puts each batch's (small) result, on the driver. Output functions run
 * on the driver on both engines, so a static call needs no serialization. The benchmark compares the outputs
 * of both sides batch for batch.
 */
public final class BenchOutput {
    private static final List<String> OUTPUTS = new ArrayList<>();

    private BenchOutput() {
    }

    public static synchronized void record(Object batchOutput) {
        OUTPUTS.add(String.valueOf(batchOutput));
    }

    /** Forgets what was recorded (tests run both sides in one JVM). */
    static synchronized void clear() {
        OUTPUTS.clear();
    }

    /** The first {@code batches} outputs recorded, in batch order. */
    static synchronized List<String> first(int batches) {
        return List.copyOf(OUTPUTS.subList(0, Math.min(batches, OUTPUTS.size())));
    }
}
