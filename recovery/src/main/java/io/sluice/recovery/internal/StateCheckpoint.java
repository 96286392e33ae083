package io.sluice.recovery.internal;

import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Where the state of one stateful operator as of batch {@code time} lives: per partition, the newest full
 * snapshot and the deltas (changed keys) written after it, oldest first. Restoring partition {@code p} reads
 * {@link #chainOf(int)}; partitions restore independently, so all of them in parallel.
 *
 * @param operatorId the operator's stable id
 * @param kind       the state's encoding (the operator kind that wrote it); a different kind cannot read it
 * @param time       the batch whose state this is
 * @param partitions how many partitions the state had
 * @param keyGroups  how many key groups keys hashed into (fixed for the life of the checkpoint)
 * @param files      every file of every partition's chain
 */
public record StateCheckpoint(String operatorId, String kind, Time time, int partitions, int keyGroups,
        List<StateFile> files) {
    public StateCheckpoint {
        if (operatorId == null || operatorId.isEmpty() || kind == null || kind.isEmpty() || time == null) {
            throw new IllegalArgumentException("a state checkpoint needs an operator id, a kind and a time");
        }
        if (partitions < 1 || keyGroups < partitions) {
            throw new IllegalArgumentException("state of '" + operatorId + "': invalid partitions " + partitions
                    + " / key groups " + keyGroups);
        }
        List<StateFile> sorted = new ArrayList<>(files);
        sorted.sort(Comparator.comparingInt(StateFile::partition).thenComparing(StateFile::time));
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

    /** The files that rebuild partition {@code partition}: its snapshot, then its deltas in time order. */
    public List<StateFile> chainOf(int partition) {
        return chain(files, partition);
    }

    private static List<StateFile> chain(List<StateFile> sorted, int partition) {
        return sorted.stream().filter(f -> f.partition() == partition).toList();
    }
}
