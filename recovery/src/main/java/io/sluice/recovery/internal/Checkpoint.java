package io.sluice.recovery.internal;

import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The progress of a streaming application after one batch: everything a restarted driver needs to continue
 * exactly where this one stopped, and nothing of the application's code (the graph is rebuilt by the
 * application's factory on every start, and matched to this by operator stable ids).
 *
 * @param batchTime    every batch up to and including this one completed and its outputs were committed
 * @param batchInterval the interval the batches were generated at
 * @param zeroTime     the context's zero time: batch times are {@code zeroTime + k * interval}
 * @param pending      batches after {@code batchTime} that were generated but are not known complete: run again
 * @param nextBatchTime the batch the timer would have generated next
 * @param operators    stable id to kind, for every operator of the graph that wrote this checkpoint
 * @param sources      where each source stood, per batch, for the batches this checkpoint may need to replay
 * @param records      what operators keep beyond positions (a stateful operator's latest state checkpoint),
 *                     opaque here but for the data files they reference
 */
public record Checkpoint(Time batchTime, Duration batchInterval, Time zeroTime, List<Time> pending,
        Time nextBatchTime, Map<String, String> operators, List<SourcePosition> sources,
        List<OperatorRecord> records) {

    public Checkpoint {
        if (batchTime == null || batchInterval == null || zeroTime == null || nextBatchTime == null) {
            throw new IllegalArgumentException("a checkpoint needs its batch time, interval, zero time and next batch");
        }
        if (batchInterval.toMillis() < 1) {
            throw new IllegalArgumentException("invalid batch interval " + batchInterval);
        }
        if (!nextBatchTime.isAfter(batchTime) || batchTime.isBefore(zeroTime)) {
            throw new IllegalArgumentException("inconsistent checkpoint times: zero " + zeroTime + ", batch "
                    + batchTime + ", next " + nextBatchTime);
        }
        List<Time> sorted = new ArrayList<>(pending);
        sorted.sort(null);
        for (int i = 0; i < sorted.size(); i++) {
            if (!sorted.get(i).isAfter(batchTime) || (i > 0 && sorted.get(i).equals(sorted.get(i - 1)))) {
                throw new IllegalArgumentException("pending batch " + sorted.get(i) + " is a duplicate or not after "
                        + "the checkpoint's batch " + batchTime);
            }
        }
        pending = List.copyOf(sorted);
        operators = Map.copyOf(new TreeMap<>(operators));
        sources = List.copyOf(sources);
        records = List.copyOf(records);
        for (OperatorRecord record : records) {
            if (!operators.containsKey(record.operatorId())) {
                throw new IllegalArgumentException("the record of '" + record.operatorId()
                        + "' belongs to no operator");
            }
        }
        for (SourcePosition position : sources) {
            if (!operators.containsKey(position.operatorId())) {
                throw new IllegalArgumentException("position of source '" + position.operatorId()
                        + "' belongs to no operator");
            }
        }
    }

    /** A source's position after one batch, in the source's own text form (offsets, file names...). */
    public record SourcePosition(String operatorId, Time time, String position) {
        public SourcePosition {
            if (operatorId == null || time == null || position == null) {
                throw new IllegalArgumentException("a source position needs an operator id, a time and a value");
            }
        }
    }

    /** The record of one operator, if it keeps one. */
    public java.util.Optional<OperatorRecord> recordOf(String operatorId) {
        return records.stream().filter(r -> r.operatorId().equals(operatorId)).findFirst();
    }

    /** Every data file this checkpoint needs, relative to the checkpoint directory. */
    public List<OperatorRecord.DataFile> dataFiles() {
        List<OperatorRecord.DataFile> files = new ArrayList<>();
        records.forEach(r -> files.addAll(r.files()));
        return files;
    }
}
