package io.sluice.dstream.scheduler;

import io.sluice.dstream.source.BatchReport;
import io.sluice.rdd.Time;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One batch as the scheduler saw it. Times are milliseconds of the context's clock; a time that has not
 * happened yet is -1, and so is a delay that depends on it (as in Spark Streaming's Java listener API).
 *
 * @param numRecords records the input streams reported for this batch
 * @param skippedRecords records sources dropped under their documented skip policy (bad input)
 * @param outputOperationInfos by output operation id, in registration order
 * @param inputReports each input stream's report by the stream's name (its {@code name(...)}, else its call
 *     site; streams of the same name are summed), in the order the streams were created: records, skipped and
 *     repaired records per source
 * @param stateOperatorInfos each stateful operator's state after the batch, by the operator's stable id, in
 *     the order the operators were created; known once the batch completed (empty before), and only for the
 *     operators whose state the batch computed
 */
public record BatchInfo(Time batchTime, long numRecords, long skippedRecords, long submissionTime,
        long processingStartTime, long processingEndTime, Map<Integer, OutputOperationInfo> outputOperationInfos,
        Map<String, BatchReport> inputReports, Map<String, StateOperatorInfo> stateOperatorInfos) {

    public BatchInfo {
        outputOperationInfos = Map.copyOf(outputOperationInfos);
        inputReports = Collections.unmodifiableMap(new LinkedHashMap<>(inputReports));
        stateOperatorInfos = Collections.unmodifiableMap(new LinkedHashMap<>(stateOperatorInfos));
    }

    /** A batch without state figures (before it completed, or without stateful operators). */
    public BatchInfo(Time batchTime, long numRecords, long skippedRecords, long submissionTime,
            long processingStartTime, long processingEndTime, Map<Integer, OutputOperationInfo> outputOperationInfos,
            Map<String, BatchReport> inputReports) {
        this(batchTime, numRecords, skippedRecords, submissionTime, processingStartTime, processingEndTime,
                outputOperationInfos, inputReports, Map.of());
    }

    /**
     * Records sources repaired and kept under {@code sluice.input.badRecords=replace} (malformed UTF-8 decoded as
     * U+FFFD, an over-long line cut short, a line cut off by a closing server); counted in {@link #numRecords}.
     */
    public long repairedRecords() {
        return inputReports.values().stream().mapToLong(BatchReport::repaired).sum();
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
