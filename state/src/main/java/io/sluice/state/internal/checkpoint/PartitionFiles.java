package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.Time;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.HadoopFiles;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.StateCodec;
import io.sluice.state.internal.StateVersion;
import io.sluice.state.internal.rocksdb.RocksCheckpoint;
import io.sluice.state.internal.rocksdb.RocksManifest;
import io.sluice.state.internal.rocksdb.RocksStateVersion;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes and reads the files of one state partition, where the partition lives (in an executor's task), so
 * every partition is written and restored in parallel with the others.
 *
 * <p>Each write or read makes its own {@link StateCodec} (a Kryo and its buffers, not thread-safe): one per
 * partition, never per record, and nothing shared between the tasks or threads that write and read at once.
 */
public final class PartitionFiles {
    private PartitionFiles() {
    }

    /**
     * Writes partition {@code partition} of an operator's state after batch {@code time}: the changes since
     * batch {@code deltaSince} if it is set and they are known, else a full snapshot.
     */
    public static StateFile write(FileSystem fs, Path root, String operatorId, Time time, int partition,
            StateVersion<?, ?> state, Long deltaSince) throws IOException {
        StateCodec codec = new StateCodec();
        boolean full = deltaSince == null || !codec.canWriteDelta(state, deltaSince);
        byte[] bytes = EntryFileFormat.encode(codec, state, full ? null : deltaSince);
        String path = StateFile.pathOf(operatorId, time, full, partition);
        Path file = new Path(root, path);
        fs.mkdirs(file.getParent());
        HadoopFiles.writeAtomically(fs, file, bytes);
        return new StateFile(partition, time, full ? StateFile.Kind.FULL : StateFile.Kind.DELTA, path, bytes.length);
    }

    /**
     * Writes the checkpoint of partition {@code partition} after batch {@code time}: a delta when one is asked for
     * ({@code deltaSince}) and the state knows its changes since then, on either backend (the entries changed since,
     * in the entry format, as {@link #write}); else for RocksDB state, its table files not among {@code baseTables}
     * (the table files of the checkpoint it builds on, with their lengths) and a manifest, and for heap state a
     * snapshot. Returns every file the partition's checkpoint needs but those of the chain it builds on: the
     * manifest or snapshot or delta, then the tables (written now or earlier).
     */
    public static List<StateFile> checkpoint(FileSystem fs, Path root, String operatorId, Time time, int partition,
            StateVersion<?, ?> state, Long deltaSince, Map<String, Long> baseTables) throws IOException {
        boolean delta = deltaSince != null && state.hasChangesSince(deltaSince);
        if (delta || !(state instanceof RocksStateVersion<?, ?>)) {
            StateFile written = write(fs, root, operatorId, time, partition, state, deltaSince);
            if (delta && state instanceof RocksStateVersion<?, ?> rocks) { // the next delta reads from this batch
                rocks.forgetChangesThrough(deltaSince);
            }
            return List.of(written);
        }
        String shared = CheckpointStore.sharedDirectory(operatorId, String.format(Locale.ROOT, "p%05d", partition));
        RocksManifest manifest = RocksCheckpoint.write(state, fs, root, shared, time.milliseconds(), baseTables);
        byte[] bytes = manifest.encode();
        String path = StateFile.pathOf(operatorId, time, true, partition);
        Path file = new Path(root, path);
        fs.mkdirs(file.getParent());
        HadoopFiles.writeAtomically(fs, file, bytes);
        List<StateFile> files = new ArrayList<>();
        files.add(new StateFile(partition, time, StateFile.Kind.FULL, path, bytes.length));
        for (RocksManifest.Table t : manifest.tables()) {
            files.add(new StateFile(partition, uploadedAt(t.path()), StateFile.Kind.TABLE, t.path(), t.length()));
        }
        return files;
    }

    /** The batch that uploaded a shared table file, which its name starts with. */
    private static Time uploadedAt(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        return new Time(Long.parseLong(name.substring(0, name.indexOf('-'))));
    }

    /**
     * The state a chain of files (a snapshot or RocksDB manifest, then deltas oldest first) describes, loaded into
     * {@code backend}.
     */
    public static <K, S> StateVersion<K, S> read(FileSystem fs, Path root, List<StateFile> chain,
            StateBackend backend) throws IOException {
        if (chain.isEmpty() || !chain.get(0).full()) {
            throw new IOException("a state chain must start with a full snapshot: " + chain);
        }
        StateCodec codec = new StateCodec();
        List<InputStream> deltas = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (StateFile f : chain.subList(1, chain.size())) {
            deltas.add(open(fs, root, f));
            files.add(new Path(root, f.path()).toString());
        }
        String first = new Path(root, chain.get(0).path()).toString();
        byte[] bytes = bytesOf(fs, root, chain.get(0));
        if (RocksManifest.isManifest(bytes)) {
            StateVersion<K, S> base = RocksCheckpoint.restore(fs, root, RocksManifest.decode(bytes, first), backend);
            return codec.applyDeltas(backend, base, deltas, files);
        }
        files.add(0, first);
        return codec.restore(backend, EntryFileFormat.decode(bytes, first), deltas, files);
    }

    private static InputStream open(FileSystem fs, Path root, StateFile f) throws IOException {
        return EntryFileFormat.decode(bytesOf(fs, root, f), new Path(root, f.path()).toString());
    }

    private static byte[] bytesOf(FileSystem fs, Path root, StateFile f) throws IOException {
        Path file = new Path(root, f.path());
        long length = fs.getFileStatus(file).getLen();
        if (length != f.length()) {
            throw new IOException("state file " + file + " has " + length + " bytes, not the " + f.length()
                    + " it was written with");
        }
        byte[] bytes = new byte[(int) length];
        try (FSDataInputStream in = fs.open(file)) {
            in.readFully(0, bytes);
        }
        return bytes;
    }

    /** The file of partition {@code partition} written at {@code time} (full or delta), if one exists. */
    public static StateFile find(FileSystem fs, Path root, String operatorId, Time time, int partition)
            throws IOException {
        for (boolean full : new boolean[] {true, false}) {
            String path = StateFile.pathOf(operatorId, time, full, partition);
            Path file = new Path(root, path);
            if (fs.exists(file)) {
                return new StateFile(partition, time, full ? StateFile.Kind.FULL : StateFile.Kind.DELTA, path,
                        fs.getFileStatus(file).getLen());
            }
        }
        return null;
    }
}
