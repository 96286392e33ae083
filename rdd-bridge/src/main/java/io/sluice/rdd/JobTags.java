package io.sluice.rdd;

import org.apache.spark.SparkContext;

/**
 * Tags the Spark jobs a thread runs with the batch and operator they belong to, so the Spark UI and event
 * log show "batch 12:00:03 · print at WordCount.java:40" instead of anonymous jobs.
 */
public final class JobTags {
    public static final String GROUP_PREFIX = "sluice-batch-";

    private JobTags() {
    }

    /** The job group of every Spark job run for the batch at {@code batchMillis}. */
    public static String groupOf(long batchMillis) {
        return GROUP_PREFIX + batchMillis;
    }

    /** Tags the calling thread's next jobs; interruptOnCancel lets a forced stop cancel them. */
    public static void tag(SparkContext sc, long batchMillis, String description) {
        sc.setJobGroup(groupOf(batchMillis), description, true);
    }

    public static void clear(SparkContext sc) {
        sc.clearJobGroup();
    }
}
