package io.sluice.dstream.scheduler;

import io.sluice.rdd.Time;

/**
 * One output operation's run within a batch.
 *
 * @param id the output operation's position among the context's output operations
 * @param name the operation, e.g. "foreachRDD"
 * @param description where the user created it, e.g. "foreachRDD at WordCount.java:42"
 * @param startTime -1 until it starts
 * @param endTime -1 until it ends
 * @param failureReason null unless it failed
 */
public record OutputOperationInfo(Time batchTime, int id, String name, String description, long startTime,
        long endTime, String failureReason) {

    public long duration() {
        return startTime < 0 || endTime < 0 ? -1 : endTime - startTime;
    }
}
