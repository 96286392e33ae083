package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.Clock;
import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.Time;
import io.sluice.rdd.Deadline;
import io.sluice.rdd.internal.RpcEndpoints;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.SerializableConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's side of receiving, one per context: launches each receiver's {@link ReceiverJob}, answers its
 * supervisor (registration, every stored block, the buffered bytes) and hears its events, passes rate limits on,
 * moves receivers off executors, and stops them so that everything they stored is known before a graceful stop
 * goes on. The write-ahead logs are its {@link ReceiverLogs}, what listeners hear its {@link ReceiverEvents}.
 */
public final class ReceiverTracker {
    private static final Logger LOG = LoggerFactory.getLogger(ReceiverTracker.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final JavaSparkContext sc;
    private final Clock clock;
    private final SourceSettings settings;
    private final ReceiverLogs logs;
    private final ReceiverEvents events;
    private final String name = "sluice-receiver-tracker-" + INSTANCES.incrementAndGet();
    private final List<TrackedReceiver> streams = new ArrayList<>();
    private final Map<Integer, Thread> jobs = new ConcurrentHashMap<>();
    /**
     * Block ids start with the registration's generation: unique in this driver, across contexts and restarts, and
     * above the generations in a stream's block log (those of earlier drivers).
     */
    private static final AtomicInteger GENERATIONS = new AtomicInteger();
    private RpcEndpoints.Ref endpoint;

    /**
     * A context's tracker, made when it starts its first receiver stream, with the source settings and the
     * checkpoint directory ({@code null}: none) the context has then.
     */
    public ReceiverTracker(JavaSparkContext sc, Consumer<StreamingListener.Event> listeners, Clock clock,
            SourceSettings settings, String checkpointDirectory) {
        this.sc = sc;
        this.clock = clock;
        this.settings = settings;
        this.logs = new ReceiverLogs(sc, settings.writeAheadLog(), checkpointDirectory);
        this.events = new ReceiverEvents(listeners, clock);
    }

    /**
     * Adds a receiver when its source starts; returns its record, which the source reads blocks from. It starts
     * at {@code rateLimit} when backpressure sets one (never above the configured maximum), else at the maximum.
     */
    synchronized TrackedReceiver register(Receiver<?> receiver, BlockFormat format, String source, String stableId,
            OptionalLong rateLimit) {
        long max = settings.receiverMaxRate();
        long rate = rateLimit.isEmpty() ? max : max > 0 ? Math.min(rateLimit.getAsLong(), max) : rateLimit.getAsLong();
        TrackedReceiver s = new TrackedReceiver(streams.size(), source, stableId, receiver, format, max, rate);
        streams.add(s);
        return s;
    }

    public SourceSettings settings() {
        return settings;
    }

    /** Whether blocks are logged: received data then survives a driver crash. */
    public boolean writeAheadLog() {
        return logs.enabled();
    }

    /** With the write-ahead log: opens the stream's log of reported blocks (before a restore reads it). */
    public void openLog(TrackedReceiver s) {
        logs.open(s);
    }

    /** After batches up to {@code oldestKept} were forgotten: cleans the logs ({@link ReceiverLogs#clean}). */
    public void cleanLogs(TrackedReceiver s, Time oldestKept, Duration batchInterval) {
        logs.clean(s, oldestKept, batchInterval);
    }

    /** Launches the receiver of {@code s} in a job of its own; the first launch registers the endpoint. */
    public void launch(TrackedReceiver s) {
        openLog(s);
        synchronized (this) {
            if (endpoint == null) {
                endpoint = RpcEndpoints.register(name, this::onMessage, this::onAsk);
            }
        }
        ReceiverSpec spec = new ReceiverSpec(s.streamId(), s.source(), name, ReceiverJob.storageLevel(sc, s.receiver()),
                s.format(), settings, logs.dataDirectory(s),
                logs.enabled() ? new SerializableConfiguration(sc.hadoopConfiguration()) : null);
        Thread t = new Thread(new ReceiverJob(sc, s, spec, jobGroup(s), events), "sluice-receiver-job-" + s.streamId());
        t.setDaemon(true);
        jobs.put(s.streamId(), t);
        t.start();
    }

    /**
     * Stops the receiver of {@code s}; gracefully, waits (up to {@code timeout}) until it has stored and reported
     * what it received, otherwise it drops what it had not stored yet; cancels its job if it did not stop in time.
     * Once every launched receiver stopped, the tracker's endpoint and log cleaner stop too.
     */
    public void stop(TrackedReceiver s, Duration timeout, boolean gracefully) {
        s.stopRequested();
        Thread job = jobs.get(s.streamId());
        if (job != null) {
            Deadline deadline = Deadline.after(timeout);
            RpcEndpoints.Ref supervisor = s.supervisor();
            if (supervisor != null) {
                try {
                    supervisor.ask(new Messages.Stop(!gracefully), Boolean.class);
                } catch (Exception e) { // a receiver that stopped by itself has no endpoint any more
                    LOG.warn("{} did not confirm its stop", s.source(), e);
                }
            }
            if (!deadline.join(job)) {
                LOG.warn("{} did not stop within {}; cancelling its job", s.source(), timeout);
                sc.cancelJobGroup(jobGroup(s));
            }
        }
        s.blocks().closeLog();
        if (everyReceiverStopping()) {
            close();
        }
    }

    private synchronized boolean everyReceiverStopping() {
        return streams.stream().allMatch(TrackedReceiver::stopping);
    }

    private void close() {
        RpcEndpoints.Ref e;
        synchronized (this) {
            e = endpoint;
            endpoint = null;
        }
        if (e == null) {
            return;
        }
        RpcEndpoints.unregister(e);
        logs.close();
    }

    /**
     * Moves the receiver of {@code s} if it runs on executor {@code executorId} (one about to be removed) to the
     * executors {@code to}: it stops as on a graceful stop, so that what it received is stored and known to the
     * driver first, and its job is launched again preferring {@code to} (Spark may still place it elsewhere once
     * its locality wait is over). Returns whether it stopped to move.
     */
    public boolean moveOff(TrackedReceiver s, String executorId, List<ExecutorLocation> to) {
        RpcEndpoints.Ref supervisor = s.supervisor();
        if (supervisor == null || !executorId.equals(s.executorId())) {
            return false;
        }
        s.launchOn(to.stream().map(ExecutorLocation::toString).toList());
        try {
            supervisor.ask(new Messages.Move(), Boolean.class);
            s.detach(supervisor);
            return true;
        } catch (Exception e) { // it stopped by itself, or its executor is gone: its job launches it again
            LOG.warn("{} did not confirm its move off executor {}", s.source(), executorId, e);
            return false;
        }
    }

    /** Sets the rate limit of one stream's receiver (backpressure); 0 means unlimited. */
    public void updateRate(TrackedReceiver s, long rate) {
        s.rate(rate);
        RpcEndpoints.Ref supervisor = s.supervisor();
        if (supervisor != null) {
            supervisor.send(new Messages.UpdateRate(rate));
        }
    }

    private String jobGroup(TrackedReceiver s) {
        return name + "-stream-" + s.streamId();
    }

    private TrackedReceiver stream(int id) {
        synchronized (this) {
            return streams.get(id);
        }
    }

    private void onMessage(Object message) {
        if (message instanceof Messages.Event m) {
            TrackedReceiver s = stream(m.streamId());
            if (m.kind().equals("reconnected")) {
                s.reconnected();
            } else if (m.kind().equals("stopped")) {
                s.finish(null);
            }
            events.post(s, m.kind(), m.message(), m.error());
        } else if (message instanceof Messages.Failed m) {
            TrackedReceiver s = stream(m.streamId());
            s.finish(m.message());
            LOG.error("{} stopped: {}", s.source(), m.message());
            events.post(s, "error", m.message(), m.error());
        }
    }

    private void onAsk(Object message, RpcEndpoints.Reply reply) {
        if (message instanceof Messages.Register m) {
            TrackedReceiver s = stream(m.streamId());
            if (s.stopping() || s.finished()) {
                reply.reply(new Messages.Registered(false, 0, 0, clock.millis()));
                return;
            }
            s.supervisor(m.supervisor(), m.executorId());
            events.registered(m.streamId(), m.host());
            // Above the logged blocks' generations too: a restarted driver's counter starts again, and a batch run
            // again reads its logged blocks by id from the block manager before the log.
            int generation = GENERATIONS.updateAndGet(g -> Math.max(g, s.blocks().newestLoggedGeneration()) + 1);
            reply.reply(new Messages.Registered(true, generation, s.rate(), clock.millis()));
        } else if (message instanceof Messages.AddBlock m) {
            try {
                long now = clock.millis();
                TrackedReceiver s = stream(m.streamId());
                s.add(m, new Time(now));
                reply.reply(new Messages.Ack(now, s.bufferedBytes()));
            } catch (IOException e) {
                reply.fail(new IllegalStateException("the driver could not log block " + m.uniqueId()
                        + " of " + stream(m.streamId()).source() + ": " + e, e));
            }
        } else if (message instanceof Messages.Buffered m) {
            reply.reply(new Messages.Ack(clock.millis(), stream(m.streamId()).askedBuffered()));
        } else {
            reply.fail(new IllegalArgumentException("unexpected message " + message));
        }
    }

    /** The tracker's name: its RPC endpoint's, which the supervisors find it by. */
    @Override
    public String toString() {
        return name;
    }
}
