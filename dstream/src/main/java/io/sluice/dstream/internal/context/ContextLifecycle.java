package io.sluice.dstream.internal.context;

import io.sluice.dstream.Clock;
import io.sluice.dstream.Footprint;
import io.sluice.dstream.StreamingContext;
import io.sluice.dstream.StreamingContextState;
import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.InputReceivers;
import io.sluice.dstream.internal.SourceOperator;
import io.sluice.dstream.internal.Node;
import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.ShutdownHook;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.recovery.Recovery;
import io.sluice.dstream.internal.scaling.Autoscaler;
import io.sluice.dstream.internal.scaling.AutoscalingSettings;
import io.sluice.dstream.internal.scaling.GraphStatefulOperators;
import io.sluice.dstream.internal.scaling.Receivers;
import io.sluice.dstream.internal.scaling.SparkExecutorAllocation;
import io.sluice.dstream.internal.state.StatefulOperator;
import io.sluice.dstream.internal.scheduler.BatchScheduler;
import io.sluice.dstream.internal.scheduler.ListenerBus;
import io.sluice.dstream.internal.ui.StreamingUi;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.CachedBlocks;
import io.sluice.rdd.Deadline;
import java.time.Duration;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.RecordedSpan;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A context's lifecycle: INITIALIZED, then ACTIVE after {@link #start}, then STOPPED, at most one context
 * active per JVM; waiting for termination and the first batch failure. Starting has one path, with or without
 * a checkpoint to continue from: the context's {@link Recovery} (recovered by getOrCreate, opened on the
 * checkpoint directory, or {@link Recovery#none()}) starts the graph and says which batches run first.
 */
public final class ContextLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(ContextLifecycle.class);
    private static final AtomicReference<StreamingContext> ACTIVE = new AtomicReference<>();

    private final StreamingContext context;
    private final JavaSparkContext sc;
    private final GraphDescription description;
    private final ListenerBus listeners;
    private final ContextSettings settings;
    private final Object lock = new Object(); // start and stop
    // Waiting for termination and reporting errors use their own monitor: stop() holds the lifecycle lock
    // while it waits for the scheduler, whose event loop reports errors; sharing one lock would stall both.
    private final Object termination = new Object();
    private volatile StreamingContextState state = StreamingContextState.INITIALIZED;
    private volatile Throwable error;
    private volatile Recovery recovery;
    private volatile StreamGraph graph; // built at start
    private volatile InputReceivers receivers; // the graph's, from start on
    private BatchScheduler scheduler;
    private ShutdownHook shutdownHook;
    private volatile boolean stoppingFromHook;
    private volatile StreamingUi ui; // from start on; kept after stop for the report
    private volatile boolean stepped;
    private volatile Time lastCompleted;
    private final List<InputSource<?>> inputs = new CopyOnWriteArrayList<>();

    public ContextLifecycle(StreamingContext context, GraphDescription description, ListenerBus listeners,
            ContextSettings settings) {
        this.context = context;
        this.sc = context.sparkContext();
        this.description = description;
        this.listeners = listeners;
        this.settings = settings;
        listeners.add(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                Time t = event.batchInfo().batchTime();
                if (lastCompleted == null || t.isAfter(lastCompleted)) {
                    lastCompleted = t;
                }
            }
        });
    }

    /** Every source of the context, for a replay clock to ask for their recordings at start. */
    public void replaying(InputSource<?> source) {
        inputs.add(source);
    }

    /** The span of the recordings the context's sources replay, or null when none replays one. */
    private RecordedSpan recordedSpan() {
        return inputs.stream().map(s -> s.recordedSpan(sc, k -> Optional.ofNullable(settings.get(k))))
                .flatMap(Optional::stream).reduce(RecordedSpan::union).orElse(null);
    }

    /** The newest batch whose completion the listeners were told of, if any. */
    public Optional<Time> lastCompletedBatch() {
        return Optional.ofNullable(lastCompleted);
    }

    /**
     * Starts the context stepped if it has not started, runs the next {@code n} batches and returns their
     * reports once the last completed, or once the context stopped (a replay that reached its end).
     */
    public List<BatchInfo> runBatches(int n, String checkpointDirectory) throws InterruptedException {
        if (n < 1) {
            throw new IllegalArgumentException("runBatches needs a number of batches of at least 1, was " + n);
        }
        List<BatchInfo> infos = new ArrayList<>(); // guarded by termination, which stop() and errors notify too
        StreamingListener listener = new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                synchronized (termination) {
                    infos.add(event.batchInfo());
                    termination.notifyAll();
                }
            }
        };
        listeners.add(listener);
        try {
            Time last;
            synchronized (lock) {
                if (state == StreamingContextState.INITIALIZED) {
                    start(checkpointDirectory, true);
                } else if (state == StreamingContextState.STOPPED || !stepped) {
                    throw new IllegalStateException("runBatches needs a context it started itself: this one is "
                            + (state == StreamingContextState.STOPPED ? "stopped" : "running on its own (start())"));
                }
                last = scheduler.allow(n);
            }
            List<BatchInfo> done;
            synchronized (termination) {
                // Woken by each completed batch, by stop() (a replay that reached its end) and by a failure.
                boolean ended = Deadline.after(null).await(termination, () -> state == StreamingContextState.STOPPED
                        || error != null || infos.stream().anyMatch(i -> !i.batchTime().isBefore(last)));
                if (!ended && Thread.interrupted()) {
                    throw new InterruptedException("interrupted while running batches");
                }
                done = new ArrayList<>(infos);
            }
            done.sort(java.util.Comparator.comparing(BatchInfo::batchTime));
            if (error != null) {
                throw BatchFailure.rethrow(BatchFailure.asThrown(error));
            }
            return done;
        } finally {
            listeners.remove(listener);
        }
    }

    /** A replay clock passed the recording's last batch: stop (gracefully) off the timer's thread. */
    private void endOfRecording() {
        Thread stopper = new Thread(() -> stop(context.ownsSparkContext(), true), "sluice-replay-end");
        stopper.setDaemon(true);
        stopper.start();
    }

    /** getOrCreate's checkpoint, read before the context starts; the start continues from it. */
    public void continueFrom(Recovery recovered) {
        recovery = recovered;
    }

    public Optional<Time> recoveredBatch() {
        Recovery r = recovery;
        return r == null ? Optional.empty() : r.recovered().map(c -> c.batchTime());
    }

    public StreamingContextState state() {
        return state;
    }

    /** The running graph, once the context started (else null). */
    public StreamGraph graph() {
        return graph;
    }

    /** Counted on the driver; the blocks are asked from every block manager. */
    public Footprint footprint() {
        StreamGraph g = graph;
        int remembered = g == null ? 0 : g.operators().stream().mapToInt(Operator::rememberedCount).sum();
        return new Footprint(remembered, sc.getPersistentRDDs().size(), CachedBlocks.count(sc.sc()));
    }

    /** The running operator of a stream of this context (once it started). */
    public <T> Operator<T> operatorOf(Node<T> node) {
        StreamGraph g = graph;
        if (g == null) {
            throw new IllegalStateException(node.callSite() + ": a stream's batches exist once the context started");
        }
        @SuppressWarnings("unchecked")
        Operator<T> op = (Operator<T>) g.operators().get(node.id());
        return op;
    }

    /** Asks the running stateful operator of {@code node} for {@code partitions} state partitions. */
    public void repartitionState(Node<?> node, int partitions) {
        StreamGraph g = graph;
        if (g == null || state != StreamingContextState.ACTIVE) {
            throw new IllegalStateException(node.callSite() + ": repartitionState applies to a running context "
                    + "(it is " + state + "); before start, set StateSpec.numPartitions or pass a Partitioner");
        }
        if (!(g.operators().get(node.id()) instanceof StatefulOperator<?, ?, ?, ?, ?> stateful)) {
            throw new IllegalArgumentException(node.callSite() + ": repartitionState takes the stream that "
                    + "mapWithState or updateStateByKey returned, not a " + node.kind() + " stream");
        }
        stateful.repartition(partitions);
    }

    /**
     * Validates the description, freezes it, and has the context's recovery (or none) build the running graph
     * on it and start its sources; then launches the receivers and starts the scheduler.
     */
    public void start(String checkpointDirectory) {
        start(checkpointDirectory, false);
    }

    /** As {@link #start(String)}; a {@code stepped} context runs only the batches {@link #runBatches} asks for. */
    private void start(String checkpointDirectory, boolean stepped) {
        synchronized (lock) {
            if (state != StreamingContextState.INITIALIZED) {
                throw new IllegalStateException("this StreamingContext is " + state
                        + "; a context starts once: build a new one to start again");
            }
            List<String> problems = description.validate();
            if (!problems.isEmpty()) {
                throw new IllegalStateException("Cannot start the streaming context:\n - "
                        + String.join("\n - ", problems));
            }
            AutoscalingSettings autoscaling = settings.autoscaling(); // null: off (refuses a local master)
            if (!ACTIVE.compareAndSet(null, context)) {
                throw new IllegalStateException("another StreamingContext is already active in this JVM "
                        + "(app '" + ACTIVE.get().sparkContext().appName() + "'); stop it before starting a new one");
            }
            try {
                if (recovery == null) { // checkpoint(dir) without getOrCreate: record progress, recover nothing
                    recovery = checkpointDirectory == null ? Recovery.none()
                            : Recovery.open(checkpointDirectory, sc, settings.recovery());
                }
                Clock clock = context.clock();
                description.freeze();
                List<BatchScheduler.BatchObserver> observers = new ArrayList<>();
                if (clock instanceof ReplayClock replay) {
                    replay.begin(recordedSpan(), context.batchInterval(), settings.replayGroupBatches(),
                            this::endOfRecording);
                    observers.add(replay); // first: a later observer's failure must not stall the replay
                }
                Recovery.Start start = recovery.start(sc, description, new Time(clock.millis()), settings.recovery());
                graph = start.graph(); // its sources started
                receivers = InputReceivers.of(graph);
                receivers.start();
                Recovery r = recovery;
                ui = StreamingUi.start(graph, listeners, clock, settings.uiRetainedBatches(), r::lastCheckpointed);
                observers.addAll(start.observers());
                scheduler = new BatchScheduler(graph, clock, listeners, this::reportError, observers,
                        settings.concurrentJobs(), sc.appName(),
                        clock instanceof ReplayClock replay ? replay : BatchScheduler.Groups.NONE);
                if (autoscaling != null) {
                    listeners.add(new Autoscaler(autoscaling, new SparkExecutorAllocation(sc.sc()),
                            new GraphStatefulOperators(graph), clock::millis, context.batchInterval().toMillis(),
                            Receivers.of(receivers), settings.executorInstances()));
                }
                scheduler.start(start.rerun(), start.firstTimerBatch(), stepped);
                this.stepped = stepped;
                state = StreamingContextState.ACTIVE;
                shutdownHook = ShutdownHook.register(() -> {
                    stoppingFromHook = true;
                    stop(false, settings.stopsGracefullyOnShutdown());
                });
                listeners.post(new StreamingListener.StreamingStarted(clock.millis()));
            } catch (RuntimeException e) {
                if (ui != null) {
                    ui.close();
                }
                ACTIVE.compareAndSet(context, null);
                state = StreamingContextState.STOPPED;
                throw e;
            }
        }
    }

    /**
     * Stops the context. Gracefully: stop receiving, finish every batch already generated (up to the graceful
     * stop timeout), then stop; otherwise running jobs are cancelled.
     */
    public void stop(boolean stopSparkContext, boolean gracefully) {
        synchronized (lock) {
            if (state == StreamingContextState.STOPPED) {
                return;
            }
            if (state == StreamingContextState.ACTIVE) {
                StreamGraph graph = this.graph;
                // Receivers first: once they stopped, everything they stored is known, and a graceful stop
                // runs one more batch for it if needed, so nothing received is lost.
                Duration timeout = settings.gracefulStopTimeout();
                receivers.stop(gracefully ? timeout : Duration.ofSeconds(2), gracefully);
                for (SourceOperator<?> input : graph.inputs()) {
                    input.stop(gracefully);
                }
                scheduler.stop(gracefully, timeout, receivers::hasPendingInput);
                receivers.release();
                graph.release();
                if (shutdownHook != null && !stoppingFromHook) {
                    shutdownHook.remove();
                }
            }
            if (recovery != null) {
                recovery.close(); // waits for the progress already submitted to be written
            }
            listeners.stop();
            if (ui != null) {
                ui.close(); // after the listeners heard every batch: the final metrics and report include them
                writeReportAtStop();
            }
            state = StreamingContextState.STOPPED;
            ACTIVE.compareAndSet(context, null);
        }
        synchronized (termination) {
            termination.notifyAll();
        }
        if (stopSparkContext) {
            sc.stop();
        }
    }

    public Optional<String> uiUrl() {
        StreamingUi u = ui;
        return u == null || state != StreamingContextState.ACTIVE ? Optional.empty() : u.url();
    }

    public void writeReport(java.nio.file.Path file) throws java.io.IOException {
        StreamingUi u = ui;
        if (u == null) {
            throw new IllegalStateException("the run report records batches from start(): start the context first");
        }
        u.writeReport(file);
    }

    private void writeReportAtStop() {
        String file = settings.uiReportFile();
        if (file != null) {
            try {
                ui.writeReport(java.nio.file.Path.of(file));
                LOG.info("Run report written to {}", file);
            } catch (java.io.IOException | RuntimeException e) {
                LOG.warn("Could not write the run report to {}", file, e);
            }
        }
    }

    /** Waits until the context stops (null: for ever); throws if a batch failed. Returns whether it stopped. */
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        Deadline deadline = Deadline.after(timeout);
        synchronized (termination) {
            if (!deadline.await(termination, () -> state == StreamingContextState.STOPPED || error != null)) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while awaiting the streaming context's termination");
                }
                return false;
            }
        }
        Throwable e = error;
        if (e != null) {
            throw BatchFailure.rethrow(BatchFailure.asThrown(e));
        }
        return true;
    }

    private void reportError(Throwable e) {
        if (settings.continueOnBatchFailure()) {
            return; // the scheduler logged it and listeners see the failed batch; the user chose to go on
        }
        synchronized (termination) {
            if (error == null) {
                error = e;
            }
            termination.notifyAll();
        }
    }
}
