package io.sluice.dstream.internal;

import io.sluice.rdd.Time;
import io.sluice.rdd.internal.Jobs;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;

/**
 * An output operation (foreachRDD, print, saveAsTextFiles): at every batch its parent has an RDD for, it
 * becomes one job. Output operations run in the order they were added ({@link GraphDescription#addOutput}).
 */
public final class OutputOperation<T> {
    /** What the job does with the batch's RDD; runs on a job thread of the driver. */
    @FunctionalInterface
    public interface Action<T> {
        void run(JavaRDD<T> rdd, Time time) throws Exception;

        /** Whether this batch's run can be split into per-partition work and a commit ({@link #split}). */
        default boolean splits(JavaRDD<T> rdd) {
            return false;
        }

        /** On the driver, when {@link #splits}: prepares the batch's run in parts. */
        default Split<T> split(JavaRDD<T> rdd, Time time) throws Exception {
            throw new UnsupportedOperationException("this output operation runs whole");
        }
    }

    /**
     * An output operation's run for one batch, in parts: what each partition's task does, then, on the driver
     * once every task succeeded, the commit that makes the output visible. Split so that the tasks of several
     * batches can share one Spark job (a replay runs groups of batches so) while each batch still commits on its
     * own, in order; {@link #run} is the one-batch job.
     */
    public interface Split<T> {
        Jobs.PartitionAction<T, ?> task();

        void commit() throws Exception;

        /** Always, last: cleans up what a failed attempt left (nothing after a commit). */
        void close() throws Exception;

        /** The batch's run alone: one job over the partitions, then the commit. */
        static <T> void run(Split<T> split, JavaRDD<T> rdd) throws Exception {
            try {
                Jobs.eachPartition(rdd.rdd(), split.task());
                split.commit();
            } finally {
                split.close();
            }
        }
    }

    private final Operator<T> parent;
    private final String kind;
    private final String callSite;
    private final Action<T> action;
    private final int id;

    OutputOperation(Operator<T> parent, String kind, String callSite, Action<T> action, int id) {
        this.parent = parent;
        this.kind = kind;
        this.callSite = callSite;
        this.action = action;
        this.id = id;
    }

    Optional<Job> generateJob(Time time) {
        return parent.getOrCompute(time).map(rdd -> new Job(time, id, kind, callSite,
                () -> naming(time, () -> action.run(rdd, time)),
                action.splits(rdd) ? () -> parts(rdd, time) : null));
    }

    private Job.Parts parts(JavaRDD<T> rdd, Time time) {
        Split<T> split = naming(time, () -> action.split(rdd, time));
        Jobs.Work<T, ?> work = new Jobs.Work<>(rdd.rdd(), split.task());
        return new Job.Parts() {
            @Override
            public Jobs.Work<?, ?> work() {
                return work;
            }

            @Override
            public void commit() {
                naming(time, split::commit);
            }

            @Override
            public void close() {
                naming(time, split::close);
            }
        };
    }

    @FunctionalInterface
    private interface Step<R> {
        R run() throws Exception;
    }

    @FunctionalInterface
    private interface VoidStep {
        void run() throws Exception;
    }

    private void naming(Time time, VoidStep step) {
        naming(time, () -> {
            step.run();
            return null;
        });
    }

    /** Runs {@code step}; a failure names this output operation and the batch. */
    private <R> R naming(Time time, Step<R> step) {
        try {
            return step.run();
        } catch (OperatorException e) {
            throw e;
        } catch (Exception e) {
            throw new OperatorException(callSite, time, e);
        }
    }

    public Operator<T> parent() {
        return parent;
    }

    public int id() {
        return id;
    }

    public String kind() {
        return kind;
    }

    public String callSite() {
        return callSite;
    }
}
