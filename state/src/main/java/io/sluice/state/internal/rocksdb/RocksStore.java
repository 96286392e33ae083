package io.sluice.state.internal.rocksdb;

import io.sluice.rdd.KeyGroups;
import io.sluice.rdd.internal.LocalDirs;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.PerfLevel;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;

/**
 * One state partition's RocksDB on an executor's local disk (under Spark's local directories), with three column
 * families: the entries (key to last update time and state), the times, and the removals (time and key, for
 * deltas). For an operator with a timeout the times are an index (one per live key at its last update: what
 * timeouts fire from and deltas are read from); without one they are a log of the keys each batch changed (time
 * and key, what deltas are read from), forgotten, with the removals, after a checkpoint or beyond a budget.
 *
 * <p>Versions are snapshots of it. Only the version at its head may write the next one: a writer {@link #claim
 * claims} the head from the version it starts from; if another version was written since (a retried or recomputed
 * batch), the writer writes into a copy of its own version instead ({@link #copyOf}), so no version ever changes.
 * The store is closed and its directory deleted once no version refers to it (a {@link Cleaner}), and Spark
 * deletes its local directories when the executor stops.
 *
 * <p>Every store of a JVM shares one block cache and one write-buffer budget, so memory outside the heap is
 * bounded whatever the number of partitions and versions.
 */
final class RocksStore {
    static {
        RocksDB.loadLibrary();
    }

    private static final long CACHE_BYTES = 64L << 20;
    private static final LRUCache CACHE = new LRUCache(CACHE_BYTES);
    private static final WriteBufferManager BUFFERS = new WriteBufferManager(CACHE_BYTES, CACHE);
    private static final Cleaner CLEANER = Cleaner.create();
    private static final AtomicLong SEQUENCES = new AtomicLong();
    private static final int COPY_CHUNK = 10_000;

    final RocksDB db;
    final ColumnFamilyHandle entries;
    final ColumnFamilyHandle times;
    final ColumnFamilyHandle removals;
    final KeyGroups groups;
    /** Names this store's table files in checkpoints: no other store, in any JVM, has the same id. */
    final String id = UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    /** The checkpoint names of the table files this store was restored from, by local file name. */
    private final Map<String, String> restoredNames;
    private final Resources resources;
    private final Cleaner.Cleanable cleanable;
    /** The sequence of the version at the head, or of a writer that claimed it (guarded by this). */
    private long head;
    /** Removals, and without a timeout logged changes, held per batch time, oldest first (guarded by this). */
    private final TreeMap<Long, Integer> heldCounts = new TreeMap<>();
    private long held;
    private long removalsKnownSince = Long.MIN_VALUE;

    /** What closing the store releases; held apart so that the cleaner's action does not keep the store alive. */
    private record Resources(File dir, DBOptions options, ColumnFamilyOptions entryOptions,
            ColumnFamilyOptions indexOptions, List<ColumnFamilyHandle> handles, RocksDB db,
            WriteOptions writeOptions) implements Runnable {
        @Override
        public void run() {
            handles.forEach(ColumnFamilyHandle::close);
            db.close();
            options.close();
            entryOptions.close();
            indexOptions.close();
            writeOptions.close();
            deleteRecursively(dir);
        }
    }

    /** @param dir an empty directory, or one holding a RocksDB checkpoint of a store (its files are opened) */
    private RocksStore(KeyGroups groups, File dir, Map<String, String> restoredNames) {
        this.groups = groups;
        this.restoredNames = Map.copyOf(restoredNames);
        // closing a store (its directory is deleted next) does not flush its write buffers: without a write-ahead
        // log RocksDB would, and a flush still running in the background when the JVM exits crashes it
        DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                .setWriteBufferManager(BUFFERS).setMaxBackgroundJobs(2).setKeepLogFileNum(2)
                .setAvoidFlushDuringShutdown(true);
        ColumnFamilyOptions entryOptions = columnFamilyOptions(true);
        ColumnFamilyOptions indexOptions = columnFamilyOptions(false);
        List<ColumnFamilyDescriptor> families = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, entryOptions),
                new ColumnFamilyDescriptor("times".getBytes(), indexOptions),
                new ColumnFamilyDescriptor("removals".getBytes(), indexOptions));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try {
            db = RocksDB.open(options, dir.getAbsolutePath(), families, handles);
        } catch (RocksDBException e) {
            options.close();
            entryOptions.close();
            indexOptions.close();
            deleteRecursively(dir);
            throw new IllegalStateException("cannot open a RocksDB state store in " + dir + ": " + e.getMessage(), e);
        }
        entries = handles.get(0);
        times = handles.get(1);
        removals = handles.get(2);
        WriteOptions writeOptions = new WriteOptions().setDisableWAL(true); // checkpoints make state durable
        resources = new Resources(dir, options, entryOptions, indexOptions, handles, db, writeOptions);
        cleanable = CLEANER.register(this, resources);
        head = SEQUENCES.incrementAndGet();
    }

    private static File newDirectory() {
        try {
            return LocalDirs.newDirectory("sluice-state");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a directory for a RocksDB state store", e);
        }
    }

    private static ColumnFamilyOptions columnFamilyOptions(boolean pointReads) {
        BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(CACHE)
                .setCacheIndexAndFilterBlocks(true);
        if (pointReads) {
            table.setFilterPolicy(new BloomFilter(10, false));
        }
        ColumnFamilyOptions options = new ColumnFamilyOptions().setTableFormatConfig(table)
                .setWriteBufferSize(16L << 20).setMaxWriteBufferNumber(2)
                // every level compressed: a table checkpoint uploads the write buffers' flushes as they are, and
                // uncompressed ones made W6r's checkpoints 2.5x the heap's (0021)
                .setCompressionType(CompressionType.ZSTD_COMPRESSION);
        if (pointReads) { // a key's lookup skips the write buffers that do not hold it
            options.setMemtableWholeKeyFiltering(true).setMemtablePrefixBloomSizeRatio(0.05);
        }
        return options;
    }

    /** A new, empty store in a directory of its own. */
    static RocksStore open(KeyGroups groups) {
        return new RocksStore(groups, newDirectory(), Map.of());
    }

    /**
     * The store in {@code dir}, which holds the files of a RocksDB checkpoint; {@code restoredNames} gives the
     * checkpoint name of each table file by its local name, so that later checkpoints upload none of them again.
     */
    static RocksStore openCheckpoint(KeyGroups groups, File dir, Map<String, String> restoredNames) {
        return new RocksStore(groups, dir, restoredNames);
    }

    /** The name a checkpoint gives table file {@code localName} of this store: the same on every checkpoint. */
    String checkpointName(String localName) {
        String restored = restoredNames.get(localName);
        return restored != null ? restored : id + "-" + localName;
    }

    /**
     * Writes the store's state now, flushed, to table files hard-linked into {@code dir} (which must not exist) with
     * the small files that describe them: what RocksDB opens as this state. The caller holds the head.
     */
    void checkpointTo(File dir) {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true);
                Checkpoint checkpoint = Checkpoint.create(db)) {
            db.flush(flush, List.of(entries, times, removals));
            checkpoint.createCheckpoint(dir.getAbsolutePath());
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot checkpoint the RocksDB state store in " + resources.dir() + ": "
                    + e.getMessage(), e);
        }
    }

    /** Closes the store and deletes its directory now; for a store no version was made of. */
    void close() {
        cleanable.clean();
    }

    /** A new store holding exactly what {@code snapshot} of {@code source} holds; its head is that state. */
    static RocksStore copyOf(RocksStore source, Snapshot snapshot, long removalsKnownSince, boolean timed) {
        RocksStore copy = open(source.groups);
        try (ReadOptions read = new ReadOptions().setSnapshot(snapshot)) {
            for (ColumnFamilyHandle family : List.of(source.entries, source.times, source.removals)) {
                ColumnFamilyHandle target = family == source.entries ? copy.entries
                        : family == source.times ? copy.times : copy.removals;
                copyFamily(source.db, family, read, copy, target);
            }
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot copy a RocksDB state store: " + e.getMessage(), e);
        }
        copy.countChanges(removalsKnownSince, timed);
        return copy;
    }

    private static void copyFamily(RocksDB from, ColumnFamilyHandle family, ReadOptions read, RocksStore copy,
            ColumnFamilyHandle target) throws RocksDBException {
        try (RocksIterator it = from.newIterator(family, read); WriteBatch batch = new WriteBatch()) {
            int n = 0;
            for (it.seekToFirst(); it.isValid(); it.next()) {
                batch.put(target, it.key(), it.value());
                if (++n % COPY_CHUNK == 0) {
                    copy.db.write(copy.resources.writeOptions(), batch);
                    batch.clear();
                }
            }
            it.status();
            copy.db.write(copy.resources.writeOptions(), batch);
        }
    }

    /** Counts the removals, and without a timeout the logged changes, held; they are known since {@code knownSince}. */
    synchronized void countChanges(long knownSince, boolean timed) {
        heldCounts.clear();
        held = 0;
        for (ColumnFamilyHandle family : timed ? List.of(removals) : List.of(removals, times)) {
            try (RocksIterator it = db.newIterator(family)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    heldCounts.merge(RocksCodec.timeOfTimeKey(it.key()), 1, Integer::sum);
                    held++;
                }
            }
        }
        removalsKnownSince = knownSince;
    }

    /** A loaded store knows no removal before {@code time}. */
    synchronized void knowRemovalsSince(long time) {
        removalsKnownSince = time;
    }

    /** The batch since which the store holds every removal (and without a timeout every change). */
    synchronized long removalsKnownSince() {
        return removalsKnownSince;
    }

    /** The sequence of the state at the head now. */
    synchronized long head() {
        return head;
    }

    /**
     * Takes the head for a writer starting from the version of sequence {@code from}: true if that version is the
     * head (no writer may take it again until {@link #commit}), false if another version was written since.
     */
    synchronized boolean claim(long from) {
        if (head != from) {
            return false;
        }
        head = -SEQUENCES.incrementAndGet(); // claimed: no version has this sequence
        return true;
    }

    /** Gives back the head a {@link #claim} took from the version of sequence {@code from}, unchanged. */
    synchronized void release(long from) {
        head = from;
    }

    /** Writes {@code batch} at the head, which the caller claimed. */
    void write(WriteBatch batch) {
        try {
            db.write(resources.writeOptions(), batch);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot write to the RocksDB state store in " + resources.dir() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Compacts what was loaded into the last level, compressed, once: a whole state loaded at once (an initial
     * state, a restore from entries, moved state) would otherwise sit in level 0 until a compaction rewrote it
     * all, and the table checkpoint after that compaction would upload the whole state a second time.
     */
    void compactLoaded() {
        try {
            for (ColumnFamilyHandle family : List.of(entries, times)) {
                db.compactRange(family);
            }
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot compact the RocksDB state store in " + resources.dir() + ": "
                    + e.getMessage(), e);
        }
    }

    /** The stored values of {@code keys} (null where none) in the entries at {@code read}, in one native call. */
    List<byte[]> multiGet(ReadOptions read, List<byte[]> keys) throws RocksDBException {
        countNothing();
        return db.multiGetAsList(read, keys); // the entries are the default column family
    }

    /** Writes {@code batch} at the head, which the caller claimed, and empties it. */
    void write(SerializedWriteBatch batch) {
        try {
            countNothing();
            batch.writeTo(db, resources.writeOptions());
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot write to the RocksDB state store in " + resources.dir() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Turns off RocksDB's per-thread operation counters (its perf context, counting by default) for the calling
     * thread: nothing reads them, and they cost a thread-local access per key read or written.
     */
    private void countNothing() {
        db.setPerfLevel(PerfLevel.DISABLE);
    }

    /**
     * Ends a claimed write: records the removals (and without a timeout the logged changes) made at {@code time},
     * {@code heldNow} of them, and forgets the oldest once more than {@code budget} are held; takes a snapshot and
     * returns the new head's sequence, snapshot and the batch since which changes are known.
     */
    synchronized Committed commit(long time, int heldNow, long budget, boolean timed) {
        if (heldNow > 0) {
            heldCounts.merge(time, heldNow, Integer::sum);
            held += heldNow;
        }
        if (held > budget) {
            long through = Long.MIN_VALUE;
            while (held > budget && !heldCounts.isEmpty()) {
                Map.Entry<Long, Integer> oldest = heldCounts.pollFirstEntry();
                held -= oldest.getValue();
                through = oldest.getKey();
            }
            forget(through, timed);
        }
        head = SEQUENCES.incrementAndGet();
        return new Committed(head, db.getSnapshot(), removalsKnownSince);
    }

    /**
     * Forgets the removals, and without a timeout the logged changes, of batches up to {@code through}, where
     * {@code heldNow} more were written and not committed yet: a delta since an earlier batch is then written as a
     * table checkpoint. The caller holds the head.
     */
    synchronized void forgetChangesThrough(long through, boolean timed, int heldNow) {
        if (through <= removalsKnownSince) {
            return;
        }
        boolean any = heldNow > 0;
        while (!heldCounts.isEmpty() && heldCounts.firstKey() <= through) {
            held -= heldCounts.pollFirstEntry().getValue();
            any = true;
        }
        if (any) {
            forget(through, timed);
        }
        removalsKnownSince = through; // nothing held to delete (a batch too large to log after another)
    }

    private void forget(long through, boolean timed) {
        if (through == Long.MIN_VALUE) {
            return;
        }
        byte[] end = RocksCodec.timePrefix(through + 1);
        try {
            db.deleteRange(removals, new byte[0], end);
            if (!timed) {
                db.deleteRange(times, new byte[0], end);
            }
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot trim a RocksDB state store's changes: " + e.getMessage(), e);
        }
        removalsKnownSince = Math.max(removalsKnownSince, through);
    }

    record Committed(long sequence, Snapshot snapshot, long removalsKnownSince) {
    }

    /** Releases {@code snapshot} once {@code owner} is unreachable. */
    void releaseWhenUnreachable(Object owner, Snapshot snapshot) {
        CLEANER.register(owner, new SnapshotRelease(this, snapshot));
    }

    /** Holds the store (not the version): the store stays open until every snapshot of it is released. */
    private record SnapshotRelease(RocksStore store, Snapshot snapshot) implements Runnable {
        @Override
        public void run() {
            store.db.releaseSnapshot(snapshot);
        }
    }

    /** The bytes of the store's table files, and of its write buffers not yet written to them. */
    long diskBytes() {
        long bytes = 0;
        try {
            for (ColumnFamilyHandle family : List.of(entries, times, removals)) {
                bytes += db.getLongProperty(family, "rocksdb.total-sst-files-size")
                        + db.getLongProperty(family, "rocksdb.cur-size-all-mem-tables");
            }
        } catch (RocksDBException e) {
            return 0; // the figures are a report: a store that cannot tell has none
        }
        return bytes;
    }

    File directory() {
        return resources.dir();
    }

    private static void deleteRecursively(File dir) {
        try (Stream<java.nio.file.Path> files = Files.walk(dir.toPath())) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // already gone with Spark's local directories
        }
    }
}
