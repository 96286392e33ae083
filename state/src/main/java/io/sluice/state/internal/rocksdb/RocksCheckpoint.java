package io.sluice.state.internal.rocksdb;

import io.sluice.rdd.KeyGroups;
import io.sluice.rdd.internal.LocalDirs;
import io.sluice.recovery.internal.HadoopFiles;
import io.sluice.state.internal.StateBackend;
import io.sluice.state.internal.StateLoader;
import io.sluice.state.internal.StateVersion;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.rocksdb.RocksIterator;

/**
 * Incremental checkpoints of RocksDB state partitions: a checkpoint is the store's table files, of which it
 * uploads only those the checkpoint it builds on does not already name, and a {@link RocksManifest}; a restore
 * puts the files in a new directory (linking those this JVM still has, {@link LocalTableFiles}, fetching the
 * rest) and opens RocksDB on them, or reads their entries into another backend.
 *
 * <p>The files are RocksDB's own checkpoint of the store (flushed, hard links of its immutable table files), not
 * table files written from a snapshot: only a store's own files keep their names from one checkpoint to the next,
 * which is what lets a checkpoint upload only the files flushed or compacted since the last.
 */
public final class RocksCheckpoint {
    private RocksCheckpoint() {
    }

    /**
     * Writes the checkpoint of {@code version} (a {@link RocksStateVersion}) after batch {@code time}: its new
     * table files to {@code sharedDir}, named {@code <time>-<store id>-<RocksDB's name>}, and returns the manifest
     * (the caller writes it). {@code reusable} are the paths and lengths of the table files of the checkpoint this
     * one builds on: a table among them is named, not uploaded again.
     */
    public static RocksManifest write(StateVersion<?, ?> state, FileSystem fs, Path root, String sharedDir,
            long time, Map<String, Long> reusable) throws IOException {
        RocksStateVersion<?, ?> version = (RocksStateVersion<?, ?>) state;
        int keyGroups = version.rocksBackend().groups().count();
        if (version.store == null) {
            return new RocksManifest(version.batchTime(), 0, version.timed(), version.removalsKnownSince(), keyGroups,
                    -1, -1, List.of(), Map.of());
        }
        Map<String, String> reusableByName = new HashMap<>();
        for (String path : reusable.keySet()) {
            reusableByName.put(checkpointNameOf(path), path);
        }
        File work = LocalDirs.newDirectory("sluice-checkpoint");
        try {
            File dir = new File(work, "db");
            int[] groups = checkpoint(version, dir);
            List<RocksManifest.Table> tables = new ArrayList<>();
            Map<String, byte[]> smallFiles = new LinkedHashMap<>();
            File[] files = dir.listFiles();
            if (files == null) {
                throw new IOException("RocksDB wrote no checkpoint in " + dir);
            }
            java.util.Arrays.sort(files, Comparator.comparing(File::getName));
            for (File f : files) {
                if (!f.getName().endsWith(".sst")) {
                    smallFiles.put(f.getName(), Files.readAllBytes(f.toPath()));
                    continue;
                }
                String name = version.store.checkpointName(f.getName());
                String path = reusableByName.get(name);
                if (path == null || reusable.get(path) != f.length()) {
                    path = sharedDir + "/" + time + "-" + name;
                    upload(fs, new Path(root, path), f);
                }
                tables.add(new RocksManifest.Table(f.getName(), path, f.length()));
            }
            // changes a delta checkpoint of this version forgot since are not in the store's files
            long changesKnownSince = Math.max(version.removalsKnownSince(), version.store.removalsKnownSince());
            RocksManifest manifest = new RocksManifest(version.batchTime(), version.size(), version.timed(),
                    changesKnownSince, keyGroups, groups[0], groups[1], tables, smallFiles);
            LocalTableFiles.keep(root.toString(), sharedDir, dir, manifest);
            return manifest;
        } finally {
            deleteRecursively(work);
        }
    }

    /** The name a table file of a shared directory was checkpointed under, without the batch that uploaded it. */
    private static String checkpointNameOf(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.substring(name.indexOf('-') + 1);
    }

    /**
     * RocksDB's checkpoint of exactly {@code version} in {@code dir}; returns the lowest and highest key group
     * holding an entry. The store is checkpointed in place while this holds its head (no batch writes meanwhile);
     * when a later version was written since, a copy of this version's snapshot is.
     */
    private static int[] checkpoint(RocksStateVersion<?, ?> version, File dir) {
        RocksStore store = version.store;
        boolean head = store.claim(version.sequence);
        RocksStore source = head ? store : RocksStore.copyOf(store, version.snapshot, version.removalsKnownSince(),
                version.timed());
        try {
            source.checkpointTo(dir);
            return keyGroupRange(source);
        } finally {
            if (head) {
                store.release(version.sequence);
            } else {
                source.close();
            }
        }
    }

    private static int[] keyGroupRange(RocksStore store) {
        try (RocksIterator it = store.db.newIterator(store.entries)) {
            it.seekToFirst();
            if (!it.isValid()) {
                return new int[] {-1, -1};
            }
            int first = groupOf(it.key());
            it.seekToLast();
            return new int[] {first, groupOf(it.key())};
        }
    }

    private static int groupOf(byte[] key) {
        return ((key[0] & 0xFF) << 8) | (key[1] & 0xFF);
    }

    /** Copies {@code local} to {@code target} so that readers see the whole file or none. */
    private static void upload(FileSystem fs, Path target, File local) throws IOException {
        // named after its batch like the target, so that cleaning removes it if a crash leaves it
        Path temp = new Path(target.getParent(), target.getName() + "." + UUID.randomUUID() + ".tmp");
        fs.mkdirs(target.getParent());
        try {
            try (InputStream in = Files.newInputStream(local.toPath()); FSDataOutputStream out = fs.create(temp, true)) {
                in.transferTo(out);
                HadoopFiles.sync(out);
            }
            if (fs.exists(target) && !fs.delete(target, false)) {
                throw new IOException("could not replace " + target);
            }
            if (!fs.rename(temp, target)) {
                throw new IOException("could not rename " + temp + " to " + target);
            }
        } catch (IOException | RuntimeException e) {
            fs.delete(temp, false);
            throw e;
        }
    }

    /**
     * The state a manifest describes, in {@code backend}: on RocksDB with the same key groups, the store opened on
     * the checkpoint's files (restored, not re-inserted); elsewhere, its entries loaded into the backend.
     */
    public static <K, S> StateVersion<K, S> restore(FileSystem fs, Path root, RocksManifest manifest,
            StateBackend backend) throws IOException {
        boolean open = backend instanceof RocksBackend rocks && rocks.groups().count() == manifest.keyGroups();
        KeyGroups groups = new KeyGroups(manifest.keyGroups());
        if (manifest.tables().isEmpty() && manifest.smallFiles().isEmpty()) {
            StateLoader<K, S> empty = backend.loader(0, manifest.timed());
            return empty.build(manifest.batchTime(), manifest.batchTime());
        }
        File dir = LocalDirs.newDirectory("sluice-state");
        Map<String, String> restoredNames = new HashMap<>();
        try {
            for (Map.Entry<String, byte[]> f : manifest.smallFiles().entrySet()) {
                Files.write(new File(dir, f.getKey()).toPath(), f.getValue());
            }
            for (RocksManifest.Table t : manifest.tables()) {
                LocalTableFiles.restore(fs, root, t, new File(dir, t.localName()));
                restoredNames.put(t.localName(), checkpointNameOf(t.path()));
            }
        } catch (IOException | RuntimeException e) {
            deleteRecursively(dir);
            throw e;
        }
        RocksStore store = RocksStore.openCheckpoint(groups, dir, restoredNames);
        if (open) {
            return opened((RocksBackend) backend, store, manifest);
        }
        try {
            return loaded(backend, store, manifest);
        } finally {
            store.close();
        }
    }

    private static <K, S> StateVersion<K, S> opened(RocksBackend backend, RocksStore store, RocksManifest manifest) {
        if (!store.claim(store.head())) {
            throw new IllegalStateException("a restored RocksDB state store was claimed twice");
        }
        store.countChanges(manifest.removalsKnownSince(), manifest.timed());
        RocksStore.Committed committed = store.commit(manifest.batchTime(), 0, Long.MAX_VALUE, manifest.timed());
        int size = Math.toIntExact(manifest.entries());
        return new RocksStateVersion<>(backend, store, committed, manifest.batchTime(), size, size, 0,
                manifest.timed());
    }

    @SuppressWarnings("unchecked")
    private static <K, S> StateVersion<K, S> loaded(StateBackend backend, RocksStore store, RocksManifest manifest) {
        StateLoader<K, S> loader = backend.loader((int) Math.min(Integer.MAX_VALUE, manifest.entries()),
                manifest.timed());
        RocksCodec codec = new RocksCodec(store.groups);
        try (RocksIterator it = store.db.newIterator(store.entries)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] value = it.value();
                loader.put((K) codec.decodeKey(it.key()), (S) codec.decodeState(value), RocksCodec.timeOfValue(value));
            }
            try {
                it.status();
            } catch (org.rocksdb.RocksDBException e) {
                throw new IllegalStateException("cannot read a RocksDB state checkpoint: " + e.getMessage(), e);
            }
        }
        return loader.build(manifest.batchTime(), manifest.batchTime());
    }

    private static void deleteRecursively(File dir) {
        try (Stream<java.nio.file.Path> files = Files.walk(dir.toPath())) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException e) {
            // already gone with Spark's local directories
        }
    }
}
