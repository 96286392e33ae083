package io.sluice.dstream.scheduler;

import io.sluice.rdd.Time;
import java.util.Map;

/**
 * One batch as the scheduler saw it. Times are milliseconds of the context's clock; a time that has not
 * happened yet is -1, and so is a delay that depends on it (as in Spark Streaming's Java listener API).
 *
 * @param numRecords records the input streams reported for this batch
 * @param skippedRecords records sources dropped under their documented skip policy (bad input)
 * @param outputOperationInfos by output operation id, in registration order
 */
public record BatchInfo(Time batchTime, long numRecords, long skippedRecords, long submissionTime,
        long processingStartTime, long processingEndTime, Map<Integer, OutputOperationInfo> outputOperationInfos) {

    public BatchInfo {
        outputOperationInfos = Map.copyOf(outputOperationInfos);
    }

    /** From the batch's time to the start of its first job. */
    public long schedulingDelay() {
        return processingStartTime < 0 ? -1 : processingStartTime - batchTime.milliseconds();
    }

    /** From the start of the first job to the end of the last. */
    public long processingDelay() {
        return processingStartTime < 0 || processingEndTime < 0 ? -1 : processingEndTime - processingStartTime;
    }

    /** From the batch's time to the end of its last job. */
    public long totalDelay() {
        return processingEndTime < 0 ? -1 : processingEndTime - batchTime.milliseconds();
    }

    public boolean failed() {
        return outputOperationInfos.values().stream().anyMatch(o -> o.failureReason() != null);
    }
}
