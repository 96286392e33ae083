package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.Clock;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.scheduler.ReceiverInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.Time;
import io.sluice.rdd.Deadline;
import io.sluice.rdd.internal.RpcEndpoints;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.spark.util.SerializableConfiguration;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.VoidFunction;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The driver's side of receiving: launches one long-running Spark job per receiver (relaunched if its task
 * fails), learns of every stored block, hands the blocks received so far to the batch being generated, passes
 * rate limits on, and stops receivers so that everything they stored is known before a graceful stop goes on.
 */
public final class ReceiverTracker {
    private static final Logger LOG = LoggerFactory.getLogger(ReceiverTracker.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final JavaSparkContext sc;
    private final Consumer<StreamingListener.Event> listeners;
    private final Clock clock;
    private final SourceSettings settings;
    private final String checkpointDirectory; // null when the context has none
    private final String name = "sluice-receiver-tracker-" + INSTANCES.incrementAndGet();
    private final List<ReceiverStream> streams = new ArrayList<>();
    private final Map<Integer, Thread> jobs = new ConcurrentHashMap<>();
    private final Map<Integer, String> hosts = new ConcurrentHashMap<>(); // by stream id, from its last registration
    private final Map<Integer, ReceiverInfo> infos = new ConcurrentHashMap<>(); // by stream id: what listeners heard
    private final java.util.concurrent.ExecutorService cleaner = java.util.concurrent.Executors.newSingleThreadExecutor(
            r -> {
                Thread t = new Thread(r, "sluice-receiver-log-cleaner");
                t.setDaemon(true);
                return t;
            });
    /**
     * Block ids start with the registration's generation: unique in this driver, across contexts and restarts, and
     * above the generations in a stream's block log (those of earlier drivers).
     */
    private static final AtomicInteger GENERATIONS = new AtomicInteger();
    private volatile boolean stopping;
    private RpcEndpoints.Ref endpoint;

    /**
     * A context's tracker, made when it starts its first receiver stream, with the source settings and the
     * checkpoint directory ({@code null}: none) the context has then.
     */
    public ReceiverTracker(JavaSparkContext sc, Consumer<StreamingListener.Event> listeners, Clock clock,
            SourceSettings settings, String checkpointDirectory) {
        this.sc = sc;
        this.checkpointDirectory = checkpointDirectory;
        this.listeners = listeners;
        this.clock = clock;
        this.settings = settings;
    }

    /** Adds a receiver stream before start; returns its state, which the input operator reads blocks from. */
    synchronized ReceiverStream register(Receiver<?> receiver, BlockFormat format, String source, String stableId) {
        ReceiverStream s = new ReceiverStream(streams.size(), source, stableId, receiver, format, settings.receiverMaxRate(),
                settings.startRate(settings.receiverMaxRate()));
        streams.add(s);
        return s;
    }

    public synchronized List<ReceiverStream> streams() {
        return List.copyOf(streams);
    }

    public SourceSettings settings() {
        return settings;
    }

    /** Whether blocks are logged: received data then survives a driver crash. */
    public boolean writeAheadLog() {
        return settings.writeAheadLog();
    }

    /** With the write-ahead log: opens the stream's log of reported blocks (before a restore reads it). */
    public void openLog(ReceiverStream s) {
        if (settings.writeAheadLog() && !s.hasLog()) {
            s.useLog(BlockMetadataLog.open(logDirectory("receivedBlockMetadata", s), sc.hadoopConfiguration()));
        }
    }

    private String logDirectory(String kind, ReceiverStream s) {
        String dir = checkpointDirectory;
        if (dir == null) {
            throw new IllegalStateException(SourceSettings.WRITE_AHEAD_LOG + " is set, but there is no checkpoint "
                    + "directory for the log: call checkpoint(directory) or use StreamingContext.getOrCreate");
        }
        // Stable ids may hold characters a Hadoop path does not take ('#'); the id's hash keeps them apart.
        String id = s.stableId();
        return dir + "/" + kind + "/" + id.replaceAll("[^A-Za-z0-9_.-]", "_") + "-" + Integer.toHexString(id.hashCode());
    }

    public void start() {
        if (streams.isEmpty()) {
            return;
        }
        streams().forEach(this::openLog);
        endpoint = RpcEndpoints.register(name, this::onMessage, this::onAsk);
        for (ReceiverStream s : streams()) {
            Thread t = new Thread(() -> runReceiverJob(s), "sluice-receiver-job-" + s.streamId());
            t.setDaemon(true);
            jobs.put(s.streamId(), t);
            t.start();
        }
    }

    /**
     * Stops every receiver; gracefully, waits (up to {@code timeout}) until each has stored and reported what
     * it received, otherwise they drop what they had not stored yet; cancels what did not stop in time.
     */
    public void stop(Duration timeout, boolean gracefully) {
        stopping = true;
        if (endpoint == null) {
            return;
        }
        Deadline deadline = Deadline.after(timeout);
        for (ReceiverStream s : streams()) {
            RpcEndpoints.Ref supervisor = s.supervisor();
            if (supervisor != null) {
                try {
                    supervisor.ask(new Messages.Stop(!gracefully), Boolean.class);
                } catch (Exception e) { // a receiver that stopped by itself has no endpoint any more
                    LOG.warn("{} did not confirm its stop", s.source(), e);
                }
            }
        }
        for (ReceiverStream s : streams()) {
            Thread t = jobs.get(s.streamId());
            if (!deadline.join(t)) {
                LOG.warn("{} did not stop within {}; cancelling its job", s.source(), timeout);
                sc.cancelJobGroup(jobGroup(s));
            }
        }
        RpcEndpoints.unregister(endpoint);
        cleaner.shutdown();
        try {
            cleaner.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (ReceiverStream s : streams()) {
            s.closeLog();
        }
    }

    /** The executors running a receiver now. */
    public Set<String> receiverExecutors() {
        Set<String> ids = new HashSet<>();
        for (ReceiverStream s : streams()) {
            String id = s.executorId();
            if (id != null) {
                ids.add(id);
            }
        }
        return ids;
    }

    /**
     * Moves the receivers running on executor {@code executorId} (one about to be removed) to the executors
     * {@code to}: each stops as on a graceful stop, so that what it received is stored and known to the driver
     * first, and its job is launched again preferring {@code to} (Spark may still place it elsewhere once its
     * locality wait is over). Returns how many receivers stopped to move.
     */
    public int moveOff(String executorId, List<ExecutorLocation> to) {
        List<String> locations = to.stream().map(ExecutorLocation::toString).toList();
        int moved = 0;
        for (ReceiverStream s : streams()) {
            RpcEndpoints.Ref supervisor = s.supervisor();
            if (supervisor == null || !executorId.equals(s.executorId())) {
                continue;
            }
            s.launchOn(locations);
            try {
                supervisor.ask(new Messages.Move(), Boolean.class);
                s.detach(supervisor);
                moved++;
            } catch (Exception e) { // it stopped by itself, or its executor is gone: its job launches it again
                LOG.warn("{} did not confirm its move off executor {}", s.source(), executorId, e);
            }
        }
        return moved;
    }

    /** Whether a receiver that stopped to move has not started again yet. */
    public boolean receiversMoving() {
        for (ReceiverStream s : streams()) {
            if (s.moving()) {
                return true;
            }
        }
        return false;
    }

    /** Whether some receiver stored blocks no batch has taken yet. */
    public boolean hasUnallocatedBlocks() {
        for (ReceiverStream s : streams()) {
            if (s.hasUnallocated()) {
                return true;
            }
        }
        return false;
    }

    /** Sets the rate limit of one stream's receiver (backpressure); 0 means unlimited. */
    public void updateRate(ReceiverStream s, long rate) {
        s.rate(rate);
        RpcEndpoints.Ref supervisor = s.supervisor();
        if (supervisor != null) {
            supervisor.send(new Messages.UpdateRate(rate));
        }
    }

    /**
     * With the write-ahead log, after batches up to {@code oldestKept} were forgotten: drops log records no
     * batch a restart could run again needs. A restart runs the batches after its last checkpoint again, and
     * checkpoints are written a little after their batches complete; only what is older than a retention of
     * ten batch intervals (at least a minute) before the oldest remembered batch goes. Runs off the scheduler's
     * thread, at most once per half retention.
     */
    public void cleanLogs(ReceiverStream s, Time oldestKept, Duration batchInterval) {
        if (!settings.writeAheadLog() || !s.hasLog()) {
            return;
        }
        Duration retention = Duration.ofMillis(Math.max(10 * batchInterval.toMillis(), 60_000));
        Time threshold = oldestKept.minus(retention);
        if (!s.cleaningDue(threshold, retention.dividedBy(2))) {
            return;
        }
        long dataThreshold = s.oldestWriteNeededAfter(threshold);
        Time metadataThreshold = threshold.minus(batchInterval); // a block reported then went to a batch <= threshold
        try {
            cleaner.execute(() -> {
                try {
                    s.cleanLog(metadataThreshold);
                    if (dataThreshold >= 0) {
                        cleanDataLogs(s, new Time(dataThreshold));
                    }
                } catch (Exception e) {
                    LOG.warn("{}: cleaning its write-ahead logs failed; they are cleaned again later", s.source(), e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // The receivers stopped (a graceful stop still completes its last batches): the next run cleans.
            LOG.debug("{}: write-ahead log cleaning skipped, the receivers have stopped", s.source());
        }
    }

    /** Every receiver incarnation's data log of the stream (the live ones write only newer records). */
    private void cleanDataLogs(ReceiverStream s, Time threshold) throws java.io.IOException {
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(logDirectory("receivedData", s));
        org.apache.hadoop.fs.FileSystem fs = root.getFileSystem(sc.hadoopConfiguration());
        if (!fs.exists(root)) {
            return;
        }
        for (org.apache.hadoop.fs.FileStatus dir : fs.listStatus(root)) {
            if (dir.isDirectory()) {
                try (var log = io.sluice.recovery.internal.wal.FileWriteAheadLog.open(dir.getPath().toString(),
                        sc.hadoopConfiguration())) {
                    log.clean(threshold);
                }
            }
        }
    }

    private void runReceiverJob(ReceiverStream s) {
        ReceiverSpec spec = new ReceiverSpec(s.streamId(), s.source(), name, storageLevel(s.receiver()),
                s.format(), settings,
                settings.writeAheadLog() ? logDirectory("receivedData", s) : null,
                settings.writeAheadLog() ? new SerializableConfiguration(sc.hadoopConfiguration()) : null);
        VoidFunction<java.util.Iterator<Integer>> body = receiverTask(s.receiver(), spec);
        int attempt = 0;
        while (!stopping && !s.finished()) {
            sc.setJobGroup(jobGroup(s), "receiver of " + s.source(), true);
            try {
                receiverJobInput(sc, attempt++, locations(s)).foreachPartition(body);
            } catch (RuntimeException e) {
                if (!stopping) {
                    LOG.warn("The job running {} failed; relaunching it", s.source(), e);
                    post(s, "error", "the receiver's task failed, relaunching it: " + e.getMessage(), e.toString());
                }
            }
        }
    }

    /** Where the receiver's next launch should run: where it moved to, else its own preferred host, else anywhere. */
    static List<String> locations(ReceiverStream s) {
        List<String> moved = s.launchOn();
        return !moved.isEmpty() ? moved : s.receiver().preferredLocation().map(List::of).orElse(List.of());
    }

    /**
     * The one-partition RDD a receiver's task runs over: it carries the receiver's preferred locations (hosts, or
     * executors as {@code executor_<host>_<id>}), so Spark's scheduler places the task there when it can (after
     * its locality wait, anywhere), as Spark Streaming does.
     */
    static JavaRDD<Integer> receiverJobInput(JavaSparkContext sc, int attempt, List<String> locations) {
        scala.collection.immutable.Seq<Tuple2<Integer, scala.collection.immutable.Seq<String>>> slices =
                CollectionConverters.asScala(List.of(new Tuple2<>(attempt,
                        CollectionConverters.asScala(locations).toSeq()))).toSeq();
        ClassTag<Integer> tag = ClassTag$.MODULE$.apply(Integer.class);
        return new JavaRDD<>(sc.sc().makeRDD(slices, tag), tag);
    }

    /** Built in a static method so the task captures only the receiver and its spec. */
    private static <T> VoidFunction<java.util.Iterator<Integer>> receiverTask(Receiver<T> receiver, ReceiverSpec spec) {
        return ignored -> ReceiverSupervisor.run(receiver, spec);
    }

    /**
     * A local master has a single block manager, so a replicated level could only warn on every block: keep one
     * copy there. On a cluster the receiver's level stands.
     */
    private StorageLevel storageLevel(Receiver<?> receiver) {
        StorageLevel level = receiver.storageLevel();
        if (sc.isLocal() && level.replication() > 1) {
            return StorageLevel.apply(level.useDisk(), level.useMemory(), level.useOffHeap(), level.deserialized(), 1);
        }
        return level;
    }

    private String jobGroup(ReceiverStream s) {
        return name + "-stream-" + s.streamId();
    }

    private ReceiverStream stream(int id) {
        synchronized (this) {
            return streams.get(id);
        }
    }

    private void onMessage(Object message) {
        if (message instanceof Messages.Event m) {
            ReceiverStream s = stream(m.streamId());
            if (m.kind().equals("reconnected")) {
                s.reconnected();
            } else if (m.kind().equals("stopped")) {
                s.finish(null);
            }
            post(s, m.kind(), m.message(), m.error());
        } else if (message instanceof Messages.Failed m) {
            ReceiverStream s = stream(m.streamId());
            s.finish(m.message());
            LOG.error("{} stopped: {}", s.source(), m.message());
            post(s, "error", m.message(), m.error());
        }
    }

    private void onAsk(Object message, RpcEndpoints.Reply reply) {
        if (message instanceof Messages.Register m) {
            ReceiverStream s = stream(m.streamId());
            if (stopping || s.finished()) {
                reply.reply(new Messages.Registered(false, 0, 0, clock.millis()));
                return;
            }
            s.supervisor(m.supervisor(), m.executorId());
            hosts.put(m.streamId(), m.host());
            // Above the logged blocks' generations too: a restarted driver's counter starts again, and a batch run
            // again reads its logged blocks by id from the block manager before the log.
            int generation = GENERATIONS.updateAndGet(g -> Math.max(g, s.newestLoggedGeneration()) + 1);
            reply.reply(new Messages.Registered(true, generation, s.rate(), clock.millis()));
        } else if (message instanceof Messages.AddBlock m) {
            try {
                long now = clock.millis();
                ReceiverStream s = stream(m.streamId());
                s.add(m, new Time(now));
                reply.reply(new Messages.Ack(now, s.bufferedBytes()));
            } catch (java.io.IOException e) {
                reply.fail(new IllegalStateException("the driver could not log block " + m.uniqueId()
                        + " of " + stream(m.streamId()).source() + ": " + e, e));
            }
        } else if (message instanceof Messages.Buffered m) {
            reply.reply(new Messages.Ack(clock.millis(), stream(m.streamId()).askedBuffered()));
        } else {
            reply.fail(new IllegalArgumentException("unexpected message " + message));
        }
    }

    /** {@code error}: the reported error's stack trace, or empty. */
    private void post(ReceiverStream s, String kind, String message, String error) {
        long now = clock.millis();
        ReceiverInfo info = infos.compute(s.streamId(), (id, before) -> next(s, before, kind, message, error, now));
        listeners.accept(new StreamingListener.ReceiverEvent(s.source(), kind, message, now, info));
    }

    /** The receiver's state after an event, from its state before (null before its first event). */
    private ReceiverInfo next(ReceiverStream s, ReceiverInfo before, String kind, String message, String error,
            long now) {
        String executor = s.executorId() != null ? s.executorId() : before == null ? "" : before.executorId();
        String host = hosts.getOrDefault(s.streamId(), "");
        boolean active = switch (kind) {
            case "started", "reconnected" -> true;
            case "stopped", "moving" -> false;
            default -> before != null && before.active() && !s.finished();
        };
        if (kind.equals("error")) {
            return new ReceiverInfo(s.streamId(), s.source(), active, host, executor, message, error, now);
        }
        return before == null ? new ReceiverInfo(s.streamId(), s.source(), active, host, executor, "", "", -1)
                : new ReceiverInfo(s.streamId(), s.source(), active, host, executor, before.lastErrorMessage(),
                        before.lastError(), before.lastErrorTime());
    }

    /** For diagnostics: the batch a block was allocated to is decided by {@link ReceiverStream#allocate(Time)}. */
    @Override
    public String toString() {
        return name;
    }
}
