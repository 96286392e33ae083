package io.sluice.state.internal.checkpoint;

import io.sluice.rdd.internal.DriverLocal;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.recovery.internal.CheckpointStore;
import io.sluice.recovery.internal.HadoopCheckpointStorage;
import io.sluice.state.internal.HeapBackend;
import io.sluice.state.internal.StateVersion;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A restart's state, decoded ahead on driver threads while the application's factory starts the SparkContext.
 *
 * <p>Starting Spark takes seconds, mostly on one thread. A restart started with {@link #start} reads the
 * newest usable checkpoint of a local directory meanwhile and decodes every state partition's files. The
 * restore then {@linkplain #lendTo lends} this prefetch to its tasks as a {@link DriverLocal}: a {@link
 * RestoredStateRDD} task running in this JVM (local mode) {@linkplain #take takes} its partition decoded instead
 * of reading it. Everything else falls back to reading the files in the task, as without it: executors in
 * other JVMs (which never see the prefetch), a chain whose decoding failed (the task reports the error on its
 * own), a chain the restart did not choose. What the restart's restores do not {@linkplain #claim claim} is
 * dropped by {@link #dropUnclaimed} and {@link #close}, so at most one copy of the state waits here, and only
 * during a restart.
 */
public final class StatePrefetch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatePrefetch.class);
    private static final AtomicInteger THREADS = new AtomicInteger();

    /** Each chain's decoding (by its key), held until a task takes it. */
    private final Map<String, CompletableFuture<StateVersion<?, ?>>> mine = new ConcurrentHashMap<>();
    private final CountDownLatch planned = new CountDownLatch(1);
    private volatile boolean closed;
    /** The chains the restart chose, once it did (planning may still be running): no others are decoded. */
    private volatile Set<String> retained;
    /** The chains the restart's restores take. */
    private final Set<String> claimed = ConcurrentHashMap.newKeySet();
    /** This prefetch as the restore's tasks find it, once lent; withdrawn on close. */
    private DriverLocal<StatePrefetch> lent;

    private StatePrefetch() {
    }

    /** A prefetch that decodes nothing (for a restart on a SparkContext that is already running). */
    public static StatePrefetch none() {
        StatePrefetch p = new StatePrefetch();
        p.closed = true;
        return p;
    }

    /**
     * Starts decoding, in the background, the state of the newest usable checkpoint in {@code directory} if it
     * is on the local file system (by Hadoop's default configuration); else decodes nothing.
     */
    public static StatePrefetch start(String directory) {
        StatePrefetch prefetch = new StatePrefetch();
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors() - 1); // one core starts Spark
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "sluice-state-prefetch-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.execute(() -> {
            try {
                prefetch.plan(directory, pool);
            } finally {
                pool.shutdown(); // runs what plan() queued, then its threads end
                prefetch.planned.countDown();
            }
        });
        return prefetch;
    }

    private void plan(String directory, ExecutorService pool) {
        try {
            Configuration conf = new Configuration();
            if (!isLocal(directory, conf)) {
                return;
            }
            HadoopCheckpointStorage storage = new HadoopCheckpointStorage(directory, conf);
            Checkpoint checkpoint = new CheckpointStore(storage, Integer.MAX_VALUE).latest().checkpoint().orElse(null);
            if (checkpoint == null) {
                return;
            }
            String root = storage.root().toString();
            for (SavedState state : SavedState.allOf(checkpoint)) {
                for (int p = 0; p < state.partitions(); p++) {
                    List<StateFile> chain = state.chainOf(p);
                    String key = key(root, chain);
                    CompletableFuture<StateVersion<?, ?>> decoded = new CompletableFuture<>();
                    mine.put(key, decoded);
                    pool.execute(() -> decode(storage, chain, decoded));
                }
            }
            dropUnwanted(); // the restart may have chosen, or stopped, while this was planning
        } catch (Exception | LinkageError e) {
            LOG.debug("Not decoding the state of {} ahead: {}", directory, e.toString());
        }
    }

    /**
     * Whether {@code directory} is on the local file system, decided before any file system is made: Hadoop
     * caches file systems by scheme and authority, not by settings, so one made here with the default
     * configuration would be the one Spark later gets for hdfs:// or s3a://, without the application's
     * {@code spark.hadoop.*} settings.
     */
    private static boolean isLocal(String directory, Configuration conf) {
        String scheme = new Path(directory).toUri().getScheme();
        if (scheme == null) {
            scheme = FileSystem.getDefaultUri(conf).getScheme();
        }
        return "file".equals(scheme);
    }

    private void decode(HadoopCheckpointStorage storage, List<StateFile> chain,
            CompletableFuture<StateVersion<?, ?>> decoded) {
        if (decoded.isDone()) {
            return; // dropped before its turn
        }
        try {
            decoded.complete(PartitionFiles.read(storage.fileSystem(), storage.root(), chain,
                    HeapBackend.INSTANCE));
        } catch (Exception | LinkageError e) {
            decoded.completeExceptionally(e);
        }
    }

    /**
     * The state a chain of files under {@code root} describes, if it was decoded ahead, waiting for its decoding
     * to finish; null when it was not (or failed: the caller reads the files and reports what is wrong).
     * Each decoded state is taken once.
     */
    @SuppressWarnings("unchecked")
    public <K, S> StateVersion<K, S> take(String root, List<StateFile> chain) {
        CompletableFuture<StateVersion<?, ?>> decoded = mine.remove(key(root, chain));
        if (decoded == null) {
            return null;
        }
        try {
            return (StateVersion<K, S>) decoded.join();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * This prefetch lent to the tasks of {@code sc} that run in this JVM (the same handle for every operator the
     * restart restores), or null once it is closed: there is nothing to take then.
     */
    public synchronized DriverLocal<StatePrefetch> lendTo(SparkContext sc) {
        if (closed) {
            return null;
        }
        if (lent == null) {
            lent = DriverLocal.publish(sc, this);
        }
        return lent;
    }

    /** Waits until every chain to decode is known (and queued); a chain not known by then is never decoded. */
    public void awaitPlanned() throws InterruptedException {
        planned.await();
    }

    /** Keeps the chains of {@code used}, each a list of files under {@code root}: a restore takes them. */
    public void claim(String root, Collection<List<StateFile>> used) {
        for (List<StateFile> chain : used) {
            claimed.add(key(root, chain));
        }
    }

    /** Drops every chain of this restart but those {@linkplain #claim claimed}: every restore of the start ran. */
    public void dropUnclaimed() {
        retained = Set.copyOf(claimed);
        dropUnwanted();
    }

    /** Drops whatever of this restart was not taken (e.g. the context stopped before its restore ran). */
    @Override
    public void close() {
        closed = true;
        dropUnwanted();
        DriverLocal<StatePrefetch> withdrawn;
        synchronized (this) {
            withdrawn = lent;
            lent = null;
        }
        if (withdrawn != null) {
            withdrawn.close();
        }
    }

    private void dropUnwanted() {
        Set<String> kept = closed ? Set.of() : retained;
        if (kept == null) {
            return;
        }
        for (String key : mine.keySet()) {
            if (!kept.contains(key)) {
                drop(key);
            }
        }
    }

    private void drop(String key) {
        CompletableFuture<StateVersion<?, ?>> decoded = mine.remove(key);
        if (decoded != null) {
            decoded.cancel(false);
        }
    }

    private static String key(String root, List<StateFile> chain) {
        StringBuilder key = new StringBuilder(root);
        for (StateFile f : chain) {
            key.append('|').append(f.path()).append('#').append(f.length());
        }
        return key.toString();
    }
}
