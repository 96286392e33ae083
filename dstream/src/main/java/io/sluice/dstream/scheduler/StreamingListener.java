package io.sluice.dstream.scheduler;

/**
 * Receives the lifecycle events of a streaming application, as Spark Streaming's listener does. Events are
 * delivered in order on one listener thread, never on the scheduler's own thread: a slow listener delays
 * other listeners, not batches.
 */
public interface StreamingListener {
    default void onStreamingStarted(StreamingStarted event) {
    }

    default void onBatchSubmitted(BatchSubmitted event) {
    }

    default void onBatchStarted(BatchStarted event) {
    }

    default void onBatchCompleted(BatchCompleted event) {
    }

    default void onOutputOperationStarted(OutputOperationStarted event) {
    }

    default void onOutputOperationCompleted(OutputOperationCompleted event) {
    }

    /** Anything a receiver-based source reports (started, error, stopped, reconnected). */
    default void onReceiverEvent(ReceiverEvent event) {
    }

    /** The closed set of events; {@link #deliverTo} is the one place that maps an event to its method. */
    sealed interface Event permits StreamingStarted, BatchSubmitted, BatchStarted, BatchCompleted,
            OutputOperationStarted, OutputOperationCompleted, ReceiverEvent {
        default void deliverTo(StreamingListener listener) {
            // Java 17 has no pattern switch; the sealed list above keeps this chain complete.
            if (this instanceof StreamingStarted e) {
                listener.onStreamingStarted(e);
            } else if (this instanceof BatchSubmitted e) {
                listener.onBatchSubmitted(e);
            } else if (this instanceof BatchStarted e) {
                listener.onBatchStarted(e);
            } else if (this instanceof BatchCompleted e) {
                listener.onBatchCompleted(e);
            } else if (this instanceof OutputOperationStarted e) {
                listener.onOutputOperationStarted(e);
            } else if (this instanceof OutputOperationCompleted e) {
                listener.onOutputOperationCompleted(e);
            } else if (this instanceof ReceiverEvent e) {
                listener.onReceiverEvent(e);
            }
        }
    }

    record StreamingStarted(long time) implements Event {
    }

    record BatchSubmitted(BatchInfo batchInfo) implements Event {
    }

    record BatchStarted(BatchInfo batchInfo) implements Event {
    }

    record BatchCompleted(BatchInfo batchInfo) implements Event {
    }

    record OutputOperationStarted(OutputOperationInfo outputOperationInfo) implements Event {
    }

    record OutputOperationCompleted(OutputOperationInfo outputOperationInfo) implements Event {
    }

    /** What happened to a receiver: {@code kind} is started, stopped, error or reconnected. */
    record ReceiverEvent(String source, String kind, String message, long time) implements Event {
    }
}
