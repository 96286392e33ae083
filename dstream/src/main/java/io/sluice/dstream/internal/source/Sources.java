package io.sluice.dstream.internal.source;

import io.sluice.dstream.Clock;
import io.sluice.dstream.internal.InputOperator;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.scheduler.ListenerBus;
import io.sluice.dstream.internal.source.rate.RateController;
import io.sluice.dstream.internal.source.rate.RateLimitedSource;
import io.sluice.dstream.internal.source.receiver.ReceiverInputOperator;
import io.sluice.dstream.internal.source.receiver.ReceiverTracker;
import java.time.Duration;
import java.util.function.Function;

/**
 * The context's sources that need more than an operator: their settings, the receiver tracker, and the rate
 * controllers (backpressure). Created with the context; started after the graph, stopped before the scheduler.
 */
public final class Sources {
    private final StreamGraph graph;
    private final ListenerBus listeners;
    private final Clock clock;
    private final Function<String, String> conf;
    private final java.util.function.Supplier<String> checkpointDirectory;
    private SourceSettings settings;
    private ReceiverTracker tracker;

    public Sources(StreamGraph graph, ListenerBus listeners, Clock clock, Function<String, String> conf,
            java.util.function.Supplier<String> checkpointDirectory) {
        this.checkpointDirectory = checkpointDirectory;
        this.graph = graph;
        this.listeners = listeners;
        this.clock = clock;
        this.conf = conf;
    }

    /** The settings, read once, when the first source needs them. */
    public synchronized SourceSettings settings() {
        if (settings == null) {
            settings = SourceSettings.from(conf);
        }
        return settings;
    }

    /** Whether the settings were read already (a later setting would not reach the sources made so far). */
    public synchronized boolean settingsRead() {
        return settings != null;
    }

    public synchronized ReceiverTracker tracker() {
        if (tracker == null) {
            tracker = new ReceiverTracker(graph.sparkContext(), listeners, clock, settings(), checkpointDirectory);
        }
        return tracker;
    }

    public void start() {
        boolean backpressure = settings().backpressure();
        for (InputOperator<?> input : graph.inputs()) {
            if (backpressure && input instanceof RateLimitedSource source) {
                listeners.add(new RateController(source, graph.batchInterval().toMillis(), settings()));
            }
        }
        ReceiverTracker t = existingTracker();
        if (t != null) {
            t.start();
        }
    }

    /** Stops the receivers; returns once each stored and reported what it received (or {@code timeout} passed). */
    public void stopReceiving(Duration timeout, boolean gracefully) {
        ReceiverTracker t = existingTracker();
        if (t != null) {
            t.stop(timeout, gracefully);
        }
    }

    /** Once the last batch ran: frees what the receivers stored. */
    public void release() {
        for (InputOperator<?> input : graph.inputs()) {
            if (input instanceof ReceiverInputOperator<?> r) {
                r.releaseBlocks();
            }
        }
    }

    /** Whether received data waits for a batch: a graceful stop then runs one more. */
    public boolean hasPendingInput() {
        ReceiverTracker t = existingTracker();
        return t != null && t.hasUnallocatedBlocks();
    }

    private synchronized ReceiverTracker existingTracker() {
        return tracker;
    }
}
