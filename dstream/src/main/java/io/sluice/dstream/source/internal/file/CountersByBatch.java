package io.sluice.dstream.source.internal.file;

import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.internal.BadInputWarning;
import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.Time;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The {@link BatchCounters} of a text source's batches: made when a batch is computed, reported, warned about
 * once the batch's jobs ran, and forgotten with the batch.
 */
public final class CountersByBatch {
    private final BatchTimeMap<BatchCounters> counters = new BatchTimeMap<>();

    /** New counters for batch {@code time} of the source {@code name}. */
    public BatchCounters open(JavaSparkContext sc, String name, Time time) {
        BatchCounters batch = new BatchCounters(sc, name + " @ " + time.milliseconds());
        counters.put(time, batch);
        return batch;
    }

    public BatchReport report(Time time) {
        return counters.get(time).map(c -> new BatchReport(c.records(), c.skipped(), c.repaired()))
                .orElse(BatchReport.NONE);
    }

    /** The batch's counts are final once its jobs ran: its one warning, if it had bad input. */
    public void batchDone(String name, Time time) {
        counters.get(time).filter(BatchCounters::firstWarning).ifPresent(c -> BadInputWarning.log(name, time,
                c.repaired(), c.skipped(), c.firstProblem()));
    }

    public void forgetOlderThan(Time oldestKept) {
        counters.forgetThrough(oldestKept);
    }
}
