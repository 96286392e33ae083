package io.sluice.dstream.source.internal;

import io.sluice.dstream.Clock;
import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.internal.receiver.ReceiverSource;
import io.sluice.dstream.source.internal.receiver.ReceiverTracker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * What a context's built-in sources share, one per context: their settings (read once, when the first source
 * needs them) and the receiver tracker of its receiver streams. The context starts it after its sources (each
 * receiver stream registers with the tracker when it starts), stops the receivers before the last batches, so
 * that a graceful stop runs one more batch for what they stored, and releases their blocks after the last one.
 */
public final class Sources {
    private final JavaSparkContext sc;
    private final Consumer<StreamingListener.Event> listeners;
    private final Clock clock;
    private final Function<String, String> conf;
    private final Supplier<String> checkpointDirectory;
    private final List<ReceiverSource<?>> receivers = new ArrayList<>();
    private SourceSettings settings;
    private ReceiverTracker tracker;

    /**
     * @param listeners posts an event to the context's listeners (receiver events)
     * @param conf the context's settings (null for an unset key)
     */
    public Sources(JavaSparkContext sc, Consumer<StreamingListener.Event> listeners, Clock clock,
            Function<String, String> conf, Supplier<String> checkpointDirectory) {
        this.sc = sc;
        this.listeners = listeners;
        this.clock = clock;
        this.conf = conf;
        this.checkpointDirectory = checkpointDirectory;
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

    /** A source of what {@code receiver} stores, run by this context's tracker; {@code detail} follows its name. */
    public synchronized <T> ReceiverSource<T> receiver(Receiver<T> receiver, String detail) {
        return added(ReceiverSource.of(receiver, detail, tracker()));
    }

    /** A source of the lines {@code receiver} stores packed; {@code detail} follows its name. */
    public synchronized ReceiverSource<String> lines(Receiver<PackedLines> receiver, String detail) {
        return added(ReceiverSource.lines(receiver, detail, tracker()));
    }

    private <T> ReceiverSource<T> added(ReceiverSource<T> source) {
        receivers.add(source);
        return source;
    }

    private ReceiverTracker tracker() {
        if (tracker == null) {
            tracker = new ReceiverTracker(sc, listeners, clock, settings(), checkpointDirectory);
        }
        return tracker;
    }

    /** Launches the receivers of the streams started so far (all of them: the context starts its sources first). */
    public void start() {
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
        for (ReceiverSource<?> r : receiverSources()) {
            r.releaseBlocks();
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

    private synchronized List<ReceiverSource<?>> receiverSources() {
        return List.copyOf(receivers);
    }
}
