package io.sluice.dstream.scheduler;

import io.sluice.rdd.Time;

/**
 * One stateful operator (mapWithState, updateStateByKey) in one batch: its state after the batch, as the tasks
 * that computed the state reported it, and the state checkpoint the batch wrote, if it wrote one.
 *
 * @param operatorId the operator's stable id (its {@code name(...)}, else its position and kind, as
 *     checkpoints attach its state)
 * @param numKeys keys in the state after the batch
 * @param estimatedBytes the state's memory, estimated from its tables' sizes (not measured); on the rocksdb
 *     backend only the handles of its versions
 * @param diskBytes the state's files on the executors' local disks (the rocksdb backend's SST files; 0 on heap)
 * @param timedOutKeys keys that timed out in the batch (mapWithState with a timeout; else 0)
 * @param reportedPartitions state partitions whose figures these are: fewer than {@code partitions} when the
 *     batch computed only some of them (the others are then not counted)
 * @param partitions the state's partitions in this batch
 * @param checkpoint the state checkpoint this batch wrote, or null
 */
public record StateOperatorInfo(String operatorId, Time batchTime, long numKeys, long estimatedBytes,
        long diskBytes, long timedOutKeys, int reportedPartitions, int partitions, StateCheckpointInfo checkpoint) {
}
