package io.sluice.rdd.internal;

import java.util.function.Supplier;
import org.apache.spark.SparkContext;

/**
 * Tags the Spark jobs a thread runs with the batch and operator they belong to, so the Spark UI and event
 * log show "batch 12:00:03 · print at WordCount.java:40" instead of anonymous jobs. A batch's jobs carry its
 * job group and a job tag of the same name; {@link #cancel} cancels by the tag. The description is also the
 * jobs' call site (Spark's stage names), as Spark Streaming names a batch's jobs after the output operation:
 * Spark then need not walk the thread's stack to find one for every job and RDD.
 */
public final class JobTags {
    public static final String GROUP_PREFIX = "sluice-batch-";
    /** Spark's local properties for the call site of what a thread runs ({@code CallSite.SHORT_FORM}, LONG_FORM). */
    public static final String SHORT_CALL_SITE = "callSite.short";
    private static final String LONG_CALL_SITE = "callSite.long";

    private JobTags() {
    }

    /** The job group of every Spark job run for the batch at {@code batchMillis}. */
    public static String groupOf(long batchMillis) {
        return GROUP_PREFIX + batchMillis;
    }

    /** Tags the calling thread's next jobs; interruptOnCancel lets a forced stop cancel them. */
    public static void tag(SparkContext sc, long batchMillis, String description) {
        sc.setJobGroup(groupOf(batchMillis), description, true);
        sc.clearJobTags();
        sc.addJobTag(groupOf(batchMillis));
        setCallSite(sc, description);
    }

    /** The call site, in both of Spark's forms, of the RDDs and jobs the calling thread makes next; null: none. */
    public static void setCallSite(SparkContext sc, String callSite) {
        sc.setLocalProperty(SHORT_CALL_SITE, callSite);
        sc.setLocalProperty(LONG_CALL_SITE, callSite);
    }

    /**
     * Cancels the jobs of the batch at {@code batchMillis} that are running, interrupting their tasks; none may be
     * (a batch still queued, or between two jobs). By the tag, not the group: Spark warns about a job group it
     * finds no running job of, and a forced stop cancels every batch in flight.
     */
    public static void cancel(SparkContext sc, long batchMillis) {
        sc.cancelJobsWithTag(groupOf(batchMillis), "by a forced stop of the streaming context");
    }

    /**
     * Runs {@code submit} (which starts jobs, typically asynchronous ones) with the jobs tagged, then gives the
     * calling thread back the tags it had: for jobs started on a user's thread, such as at start.
     */
    public static <T> T tagged(SparkContext sc, long batchMillis, String description, Supplier<T> submit) {
        String[] keys = {"spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel",
            "spark.job.tags", SHORT_CALL_SITE, LONG_CALL_SITE};
        String[] before = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            before[i] = sc.getLocalProperty(keys[i]);
        }
        tag(sc, batchMillis, description);
        try {
            return submit.get();
        } finally {
            for (int i = 0; i < keys.length; i++) {
                sc.setLocalProperty(keys[i], before[i]);
            }
        }
    }

    public static void clear(SparkContext sc) {
        sc.clearJobGroup();
        sc.clearJobTags();
        setCallSite(sc, null);
    }
}
