package io.sluice.dstream.source.internal;

import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.SourceContext;
import io.sluice.dstream.source.internal.receiver.ReceiverSource;
import io.sluice.dstream.source.internal.receiver.ReceiverTracker;
import io.sluice.rdd.ExecutorLocation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What a context's built-in sources share, one per context: the receiver tracker of its receiver streams, made
 * when the first of them starts, from the source settings and the checkpoint directory the context has then.
 * The context starts it after its sources (each receiver stream registers with the tracker when it starts),
 * stops the receivers before the last batches, so that a graceful stop runs one more batch for what they stored,
 * and releases their blocks after the last one. The autoscaler moves receivers through it.
 */
public final class Sources {
    private final Consumer<StreamingListener.Event> listeners;
    private final List<ReceiverSource<?>> receivers = new ArrayList<>();
    private ReceiverTracker tracker;

    /** @param listeners posts an event to the context's listeners (receiver events) */
    public Sources(Consumer<StreamingListener.Event> listeners) {
        this.listeners = listeners;
    }

    /** A source of what {@code receiver} stores, run by this context's tracker; {@code detail} follows its name. */
    public synchronized <T> ReceiverSource<T> receiver(Receiver<T> receiver, String detail) {
        return added(ReceiverSource.of(receiver, detail, this::tracker));
    }

    /** As {@link #receiver(Receiver, String)}, with the receiver made at start from the source settings. */
    public synchronized <T> ReceiverSource<T> receiver(Function<SourceSettings, Receiver<T>> receiverFor,
            String detail) {
        return added(ReceiverSource.madeAtStart(receiverFor, detail, this::tracker));
    }

    /** A source of the lines a receiver (made at start from the source settings) stores packed. */
    public synchronized ReceiverSource<String> lines(Function<SourceSettings, Receiver<PackedLines>> receiverFor,
            String detail) {
        return added(ReceiverSource.lines(receiverFor, detail, this::tracker));
    }

    /** A source of the records in the serialized frames a receiver (made at start) stores ({@code rawSocketStream}). */
    public synchronized <T> ReceiverSource<T> serialized(Function<SourceSettings, Receiver<byte[]>> receiverFor,
            String detail) {
        return added(ReceiverSource.serialized(receiverFor, detail, this::tracker));
    }

    private <T> ReceiverSource<T> added(ReceiverSource<T> source) {
        receivers.add(source);
        return source;
    }

    /** The context's tracker: made by the first receiver stream that starts, from what {@code context} has. */
    private synchronized ReceiverTracker tracker(SourceContext context) {
        if (tracker == null) {
            tracker = new ReceiverTracker(context.sparkContext(), listeners, context.clock(),
                    SourceSettings.from(context), context.checkpointDirectory().orElse(null));
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

    /** How many receivers the context runs. */
    public synchronized int receivers() {
        return receivers.size();
    }

    /** The executors a receiver runs on now. */
    public java.util.Set<String> receiverExecutors() {
        ReceiverTracker t = existingTracker();
        return t == null ? java.util.Set.of() : t.receiverExecutors();
    }

    /** Whether a receiver that stopped to move has not started again yet. */
    public boolean receiversMoving() {
        ReceiverTracker t = existingTracker();
        return t != null && t.receiversMoving();
    }

    /** Moves the receivers running on executor {@code executorId} to {@code to} (see ReceiverTracker#moveOff). */
    public int moveReceiversOff(String executorId, List<ExecutorLocation> to) {
        ReceiverTracker t = existingTracker();
        return t == null ? 0 : t.moveOff(executorId, to);
    }

    private synchronized ReceiverTracker existingTracker() {
        return tracker;
    }

    private synchronized List<ReceiverSource<?>> receiverSources() {
        return List.copyOf(receivers);
    }
}
