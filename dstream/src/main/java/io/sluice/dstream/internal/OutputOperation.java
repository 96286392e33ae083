package io.sluice.dstream.internal;

import io.sluice.rdd.Time;
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
        return parent.getOrCompute(time).map(rdd -> new Job(time, id, kind, callSite, () -> {
            try {
                action.run(rdd, time);
            } catch (OperatorException e) {
                throw e;
            } catch (Exception e) {
                throw new OperatorException(callSite, time, e);
            }
        }));
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
