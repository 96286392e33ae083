package io.sluice.dstream.internal;

import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Jobs;

/**
 * One job of a batch: an output operation's work, or a job the batch runs after its outputs (a state
 * checkpoint). {@code outputId}, {@code kind} and {@code callSite} identify it in listener events. {@code body}
 * runs it whole; {@code split}, when not null, prepares it in parts instead, so that the outputs of several
 * batches can share one Spark job (see {@link OutputOperation.Split}).
 */
public record Job(Time time, int outputId, String kind, String callSite, Runnable body, Splitter split) {
    public Job(Time time, int outputId, String kind, String callSite, Runnable body) {
        this(time, outputId, kind, callSite, body, null);
    }

    /** Prepares a splittable job, on the driver; its failures name the output operation and the batch. */
    @FunctionalInterface
    public interface Splitter {
        Parts prepare();
    }

    /** A prepared job: its per-partition work, to run in some Spark job, then its commit on the driver. */
    public interface Parts {
        Jobs.Work<?, ?> work();

        /** After every partition's work succeeded. */
        void commit();

        /** Always, last: cleans up what a failed or abandoned attempt left. */
        void close();
    }
}
