package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.source.internal.BadInputException;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.receiver.ReceiverContext;
import io.sluice.rdd.internal.BlockStore;
import io.sluice.rdd.internal.FileKryo;
import io.sluice.rdd.internal.RpcEndpoints;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one receiver inside a long-running task on an executor: registers with the driver's receiver tracker,
 * binds the receiver to itself (its {@link ReceiverContext}) and starts it, cuts what it stores into blocks (a
 * {@link BlockGenerator}) that a {@link BlockReporter} stores and reports, holds storing to the rate limit and the
 * buffering bound, restarts the receiver with backoff when it asks to, and on a stop request stores everything
 * buffered before it replies, so a graceful stop loses nothing that was stored.
 */
final class ReceiverSupervisor<T> implements ReceiverContext<T> {
    private static final Logger LOG = LoggerFactory.getLogger(ReceiverSupervisor.class);

    private enum State { STARTING, STARTED, RESTARTING, STOPPED }

    /** A restart cannot register a class, and going on without the log would lose what the user asked to keep. */
    private static final String UNLOGGABLE = "the receiver is stopped: with the write-ahead log on ("
            + SourceSettings.WRITE_AHEAD_LOG + ") it can store only records of classes registered with Kryo";

    private final Receiver<T> receiver;
    private final ReceiverSpec spec;
    private final SourceSettings settings;
    private final BlockFormat format;
    private final RateLimiter limiter;
    private final BlockGenerator<T> generator;
    private final ScheduledExecutorService restarter;
    private final CountDownLatch finished = new CountDownLatch(1);
    private RpcEndpoints.Ref driver;
    private RpcEndpoints.Ref self;
    private volatile BlockReporter reporter; // once registered
    private final BufferBound bound;
    private volatile State state = State.STARTING;
    private volatile int failedRestarts;
    private volatile boolean storedSinceStart;
    private long restarts;

    private ReceiverSupervisor(Receiver<T> receiver, ReceiverSpec spec) {
        this.receiver = receiver;
        this.spec = spec;
        this.settings = spec.settings();
        this.format = spec.format();
        this.limiter = new RateLimiter(0);
        String name = spec.streamId() + "-" + UUID.randomUUID();
        long maxBuffered = settings.maxBufferedBytes() >= 0 ? settings.maxBufferedBytes()
                : BlockStore.storageMemory() / 2;
        this.bound = new BufferBound(maxBuffered, spec.source(), settings.blockInterval());
        this.generator = new BlockGenerator<>(name, settings.blockInterval(), settings.blockQueueSize(),
                Math.max(1, maxBuffered / 4), bound, format.knowsBytes() ? null : BlockStore::estimateSize,
                new BlockGenerator.BlockSink<>() {
                    @Override
                    public void push(List<Object> elements, long count, long bytes, long skipped, long repaired,
                            String firstProblem) throws Exception {
                        reporter.push(elements, count, bytes, skipped, repaired, firstProblem,
                                ReceiverSupervisor.this::isStarted);
                    }

                    @Override
                    public void pushFailed(long bytes, Exception e) {
                        bound.dropped(bytes);
                        stopFor(e, "could not store a block of received data");
                    }
                });
        this.restarter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-receiver-restarter-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /** The body of the receiver's task: returns when the receiver has stopped for good. */
    static <T> void run(Receiver<T> receiver, ReceiverSpec spec) throws InterruptedException {
        new ReceiverSupervisor<>(receiver, spec).runUntilStopped();
    }

    private void runUntilStopped() throws InterruptedException {
        driver = RpcEndpoints.driver(spec.trackerName());
        self = RpcEndpoints.register(spec.trackerName() + "-receiver-" + spec.streamId() + "-" + UUID.randomUUID(),
                this::onMessage, this::onAsk);
        try {
            Messages.Registered reg = driver.ask(new Messages.Register(spec.streamId(), self, RpcEndpoints.host(),
                    RpcEndpoints.executorId()), Messages.Registered.class);
            if (!reg.proceed()) {
                return;
            }
            reporter = new BlockReporter(spec, driver, bound, reg);
            limiter.setRate(reg.rate());
            receiver.bind(this);
            generator.start();
            restarter.execute(() -> startReceiver(false));
            finished.await();
        } catch (InterruptedException e) {
            // the job was cancelled (a non-graceful stop): nothing more is stored
            state = State.STOPPED;
            generator.abort();
            safely(receiver::onStop, "onStop");
            throw e;
        } finally {
            restarter.shutdownNow();
            RpcEndpoints.unregister(self);
            if (reporter != null) {
                reporter.close();
            }
        }
    }

    private void startReceiver(boolean afterRestart) {
        if (state == State.STOPPED) {
            return;
        }
        state = State.STARTED;
        storedSinceStart = false;
        // reported before onStart, as Spark Streaming registers a receiver first: whatever the receiver's own
        // threads report (an error, a stop) comes after its start
        if (afterRestart) {
            restarts++;
            event("reconnected", "restart #" + restarts + " of " + spec.source());
        } else {
            event("started", spec.source() + " started on executor " + RpcEndpoints.executorId());
        }
        try {
            receiver.onStart();
        } catch (Throwable e) {
            restart("the receiver failed to start", e, null);
        }
    }

    // ---- ReceiverContext: what the receiver calls ----------------------------------------------------------

    @Override
    public void store(T record) {
        int records = format.records(record);
        acquire(records);
        generator.add(record, records, format.bytes(record));
        noteStored();
    }

    @Override
    public void store(Iterator<T> records) {
        List<Object> block = new ArrayList<>();
        records.forEachRemaining(block::add);
        storeBlock(block);
    }

    @Override
    public void store(ByteBuffer bytes) {
        storeBlock(BlockStore.readStream(bytes));
    }

    private void storeBlock(List<Object> block) {
        long records = 0;
        for (Object element : block) {
            records += format.records(element);
        }
        acquire(records);
        try {
            reporter.push(block, records, 0, 0, 0, null, this::isStarted);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(spec.source() + ": interrupted while storing a block", e);
        } catch (Exception e) {
            throw new IllegalStateException(spec.source() + ": " + stopFor(e, null) + ": " + e, e);
        }
        noteStored();
    }

    /** Skipped under {@code replace} too: the receiver did not store the record, so there is nothing to keep. */
    @Override
    public void reportBadRecord(String reason) {
        if (settings.badRecords() == SourceSettings.BadRecordPolicy.FAIL) {
            stop("bad input (set " + SourceSettings.BAD_RECORDS + "=replace or skip to keep the job running and "
                    + "count such records)", new BadInputException(reason));
        } else {
            LOG.debug("{}: skipped a bad record: {}", spec.source(), reason); // the driver warns once per batch
            generator.addSkipped(reason);
        }
    }

    @Override
    public void reportRepairedRecord(String position) {
        LOG.debug("{}: stored a repaired record: {}", spec.source(), position); // the driver warns once per batch
        generator.addRepaired(position);
    }

    @Override
    public void reportError(String message, Throwable error) {
        LOG.warn("{}: {}", spec.source(), message, error);
        event("error", message + (error == null ? "" : ": " + error), error);
    }

    @Override
    public void restart(String message, Throwable error, Duration delay) {
        if (state == State.STOPPED || state == State.RESTARTING) {
            return;
        }
        state = State.RESTARTING;
        Duration wait = delay != null ? delay : backoff();
        event("error", message + (error == null ? "" : ": " + error) + "; restarting in " + wait.toMillis() + " ms",
                error);
        restarter.execute(() -> {
            safely(receiver::onStop, "onStop");
            restarter.schedule(() -> startReceiver(true), wait.toMillis(), TimeUnit.MILLISECONDS);
        });
    }

    @Override
    public void stop(String message, Throwable error) {
        if (state == State.STOPPED) {
            return;
        }
        state = State.STOPPED;
        Thread t = new Thread(() -> {
            terminate();
            if (error != null) {
                driver.send(new Messages.Failed(spec.streamId(), message + ": " + error.getMessage(),
                        stackTrace(error)));
            } else {
                event("stopped", message);
            }
            finished.countDown();
        }, "sluice-receiver-stop-" + spec.streamId());
        t.setDaemon(true);
        t.start();
    }

    @Override
    public boolean isStarted() {
        return state == State.STARTED;
    }

    @Override
    public boolean isStopped() {
        return state != State.STARTED;
    }

    @Override
    public int streamId() {
        return spec.streamId();
    }

    // ---- the tracker's requests ---------------------------------------------------------------------------

    private void onMessage(Object message) {
        if (message instanceof Messages.UpdateRate m) {
            limiter.setRate(m.rate());
        }
    }

    private void onAsk(Object message, RpcEndpoints.Reply reply) {
        if (message instanceof Messages.Stop stop) {
            stopThenReply(reply, () -> {
                if (state != State.STOPPED && stop.drop()) {
                    state = State.STOPPED; // a forced stop: what is buffered is not stored
                    generator.abort();
                    safely(receiver::onStop, "onStop");
                    event("stopped", spec.source() + " stopped by the driver, dropping what it had not stored");
                } else if (state != State.STOPPED) {
                    state = State.STOPPED;
                    terminate();
                    event("stopped", spec.source() + " stopped by the driver");
                }
            });
        } else if (message instanceof Messages.Move) {
            stopThenReply(reply, () -> {
                if (state != State.STOPPED) {
                    state = State.STOPPED;
                    terminate();
                    event("moving", spec.source() + " stopped on executor " + RpcEndpoints.executorId()
                            + " to move to another");
                }
            });
        } else {
            reply.fail(new IllegalArgumentException("unexpected message " + message));
        }
    }

    /**
     * Runs {@code stop}, replies, and ends the receiver's task, in a thread of its own: storing the last blocks
     * asks the driver, which may need this RPC thread.
     */
    private void stopThenReply(RpcEndpoints.Reply reply, Runnable stop) {
        Thread t = new Thread(() -> {
            stop.run();
            reply.reply(Boolean.TRUE);
            finished.countDown();
        }, "sluice-receiver-stop-" + spec.streamId());
        t.setDaemon(true);
        t.start();
    }

    // ---- blocks -----------------------------------------------------------------------------------------------

    /** Stops the receiver, then stores and reports everything it stored before. */
    private void terminate() {
        safely(receiver::onStop, "onStop");
        try {
            generator.stopAndFlush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** After a failed store: stops the receiver if the log refused a class, or with a message given; says which. */
    private String stopFor(Exception e, String message) {
        Optional<FileKryo.UnwritableClassException> unloggable = FileKryo.UnwritableClassException.of(e);
        if (unloggable.isPresent() || message != null) {
            failed(unloggable.isPresent() ? UNLOGGABLE : message, unloggable.isPresent() ? unloggable.get() : e);
        }
        return unloggable.isPresent() ? UNLOGGABLE : "could not store a block of received records";
    }

    private void failed(String message, Exception e) {
        LOG.error("{}: {}", spec.source(), message, e);
        stop(message, e);
    }

    private void acquire(long permits) {
        try {
            bound.awaitRoom(() -> state == State.STARTED);
            limiter.acquire(permits);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(spec.source() + ": interrupted while waiting for the rate limit", e);
        }
    }

    private void noteStored() {
        if (!storedSinceStart) {
            storedSinceStart = true;
            failedRestarts = 0;
        }
    }

    private Duration backoff() {
        int n = failedRestarts++;
        long ms = settings.restartDelay().toMillis() << Math.min(n, 20);
        return Duration.ofMillis(Math.min(ms, settings.maxRestartDelay().toMillis()));
    }

    private void event(String kind, String message) {
        event(kind, message, null);
    }

    private void event(String kind, String message, Throwable error) {
        try {
            driver.send(new Messages.Event(spec.streamId(), kind, message, error == null ? "" : stackTrace(error)));
        } catch (RuntimeException e) {
            LOG.warn("{}: could not tell the driver '{} {}'", spec.source(), kind, message, e);
        }
    }

    private static String stackTrace(Throwable error) {
        java.io.StringWriter out = new java.io.StringWriter();
        error.printStackTrace(new java.io.PrintWriter(out));
        return out.toString();
    }

    private void safely(Runnable r, String what) {
        try {
            r.run();
        } catch (Throwable e) {
            LOG.warn("{}: receiver {} failed", spec.source(), what, e);
        }
    }
}
