package io.sluice.dstream.scheduler;

/**
 * The state checkpoint of one stateful operator that a batch wrote: per state partition, on either backend, a
 * delta of the changes since the previous checkpoint or a full one: a snapshot, or on RocksDB a manifest and the
 * table files that earlier checkpoints did not upload (counted as a full file: it restores without any other
 * checkpoint's manifest).
 *
 * @param fullFiles partitions written as full snapshots (or RocksDB manifests)
 * @param deltaFiles partitions written as deltas
 * @param bytesWritten the bytes written, all partitions (on RocksDB, the manifests and the new table files)
 * @param writeMillis how long the checkpoint's job took (wall time), from the start of the write to the last file
 */
public record StateCheckpointInfo(int fullFiles, int deltaFiles, long bytesWritten, long writeMillis) {
    public StateCheckpointInfo {
        if (fullFiles < 0 || deltaFiles < 0 || bytesWritten < 0 || writeMillis < 0) {
            throw new IllegalArgumentException("invalid state checkpoint figures: " + fullFiles + " full, "
                    + deltaFiles + " delta files, " + bytesWritten + " bytes, " + writeMillis + " ms");
        }
    }

    /** "full" when every partition was written as a snapshot, "delta" when every one as a delta, else "mixed". */
    public String kind() {
        return deltaFiles == 0 ? "full" : fullFiles == 0 ? "delta" : "mixed";
    }
}
