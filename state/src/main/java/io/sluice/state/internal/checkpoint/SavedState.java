package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.CheckpointFormat;
import io.sluice.recovery.internal.OperatorRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Where the state of one stateful operator as of batch {@code time} lives: per partition, the newest full
 * snapshot (or RocksDB manifest, with the table files it names) and the deltas (changed keys) written after it,
 * oldest first. Restoring partition {@code p} reads {@link #chainOf(int)}; partitions restore independently, so
 * all of them in parallel.
 *
 * <p>A progress checkpoint keeps it as the operator's {@link OperatorRecord} ({@link #toRecord}, {@link #of}):
 * the description {@code <kind> <batch ms> <partitions> <key groups>} and one data file per {@link StateFile},
 * the same text as the {@code state} and {@code file} lines of checkpoints written before recovery held records.
 *
 * @param operatorId the operator's stable id
 * @param kind       the state's encoding (the operator kind that wrote it); a different kind cannot read it
 * @param time       the batch whose state this is
 * @param partitions how many partitions the state had
 * @param keyGroups  how many key groups keys hashed into (fixed for the life of the checkpoint)
 * @param files      every file of every partition's chain, and the table files its manifests name
 */
public record SavedState(String operatorId, String kind, Time time, int partitions, int keyGroups,
        List<StateFile> files) {
    public SavedState {
        if (operatorId == null || operatorId.isEmpty() || kind == null || kind.isEmpty() || time == null) {
            throw new IllegalArgumentException("a state checkpoint needs an operator id, a kind and a time");
        }
        if (partitions < 1 || keyGroups < partitions) {
            throw new IllegalArgumentException("state of '" + operatorId + "': invalid partitions " + partitions
                    + " / key groups " + keyGroups);
        }
        List<StateFile> sorted = new ArrayList<>(files);
        sorted.sort(Comparator.comparingInt(StateFile::partition).thenComparing(StateFile::time)
                .thenComparing(StateFile::kind).thenComparing(StateFile::path));
        for (int p = 0; p < partitions; p++) {
            List<StateFile> chain = chain(sorted, p);
            if (chain.isEmpty() || !chain.get(0).full()) {
                throw new IllegalArgumentException("state of '" + operatorId + "' partition " + p
                        + " does not start with a full snapshot");
            }
            for (int i = 1; i < chain.size(); i++) {
                if (chain.get(i).full() || !chain.get(i).time().isAfter(chain.get(i - 1).time())) {
                    throw new IllegalArgumentException("state of '" + operatorId + "' partition " + p
                            + " has a broken delta chain at " + chain.get(i).path());
                }
            }
            if (chain.get(chain.size() - 1).time().isAfter(time)) {
                throw new IllegalArgumentException("state of '" + operatorId + "' has a file newer than " + time);
            }
        }
        for (StateFile f : sorted) {
            if (f.partition() >= partitions) {
                throw new IllegalArgumentException("state of '" + operatorId + "': file " + f.path()
                        + " belongs to partition " + f.partition() + " of only " + partitions);
            }
        }
        files = List.copyOf(sorted);
    }

    /** This state checkpoint as a progress checkpoint records it. */
    public OperatorRecord toRecord() {
        return new OperatorRecord(operatorId, CheckpointFormat.enc(kind) + " " + time.milliseconds() + " "
                + partitions + " " + keyGroups, files.stream().map(StateFile::toDataFile).toList());
    }

    /**
     * The state checkpoint a progress checkpoint of batch {@code batch} records for one operator; throws naming
     * the operator when the record is not one (a checkpoint damaged in a way its checksum could not see, or
     * written by a different layer).
     */
    public static SavedState of(OperatorRecord record, Time batch) {
        String[] d = record.description().split(" ");
        if (d.length != 4) {
            throw new IllegalArgumentException("the checkpoint record of '" + record.operatorId() + "' is '"
                    + record.description() + "', not '<kind> <batch ms> <partitions> <key groups>'");
        }
        SavedState state = new SavedState(record.operatorId(), CheckpointFormat.dec(d[0]),
                new Time(Long.parseLong(d[1])), Integer.parseInt(d[2]), Integer.parseInt(d[3]),
                record.files().stream().map(StateFile::of).toList());
        if (state.time().isAfter(batch)) {
            throw new IllegalArgumentException("state of '" + state.operatorId() + "' at " + state.time()
                    + " is newer than the checkpoint's batch " + batch);
        }
        return state;
    }

    /** The state checkpoint {@code checkpoint} records for operator {@code operatorId}, if any. */
    public static Optional<SavedState> of(Checkpoint checkpoint, String operatorId) {
        return checkpoint.recordOf(operatorId).map(r -> of(r, checkpoint.batchTime()));
    }

    /** Every state checkpoint {@code checkpoint} records, in its order. */
    public static List<SavedState> allOf(Checkpoint checkpoint) {
        return checkpoint.records().stream().map(r -> of(r, checkpoint.batchTime())).toList();
    }

    /**
     * The files that rebuild partition {@code partition}: its snapshot (or manifest, which names its tables),
     * then its deltas in time order.
     */
    public List<StateFile> chainOf(int partition) {
        return chain(files, partition);
    }

    /** Every file partition {@code partition} needs: its chain and the table files its manifest names. */
    public List<StateFile> filesOf(int partition) {
        return files.stream().filter(f -> f.partition() == partition).toList();
    }

    private static List<StateFile> chain(List<StateFile> sorted, int partition) {
        return sorted.stream().filter(f -> f.partition() == partition && f.kind() != StateFile.Kind.TABLE).toList();
    }
}
