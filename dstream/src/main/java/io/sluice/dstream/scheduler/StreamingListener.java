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

    /** Anything a receiver-based source reports (started, error, stopped, reconnected, moving). */
    default void onReceiverEvent(ReceiverEvent event) {
    }

    /** A receiver started, or started again after a restart, a reconnect or a move to another executor. */
    default void onReceiverStarted(ReceiverStarted receiverStarted) {
    }

    /** A receiver reported an error (it restarts, or stops if it cannot go on). */
    default void onReceiverError(ReceiverError receiverError) {
    }

    /** A receiver stopped: for good, or to move to another executor (then started again there). */
    default void onReceiverStopped(ReceiverStopped receiverStopped) {
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
                e.deliverReceiverCallback(listener);
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

    /**
     * What happened to a receiver: {@code kind} is started, stopped, error, reconnected or moving; {@code
     * receiverInfo} is the receiver's state after it, which Spark Streaming's receiver callbacks get.
     */
    record ReceiverEvent(String source, String kind, String message, long time, ReceiverInfo receiverInfo)
            implements Event {
        /** The Spark Streaming callback this event also feeds: a restart or a move is a start, a move a stop. */
        void deliverReceiverCallback(StreamingListener listener) {
            switch (kind) {
                case "started", "reconnected" -> listener.onReceiverStarted(new ReceiverStarted(receiverInfo));
                case "error" -> listener.onReceiverError(new ReceiverError(receiverInfo));
                case "stopped", "moving" -> listener.onReceiverStopped(new ReceiverStopped(receiverInfo));
                default -> {
                }
            }
        }
    }

    record ReceiverStarted(ReceiverInfo receiverInfo) {
    }

    record ReceiverError(ReceiverInfo receiverInfo) {
    }

    record ReceiverStopped(ReceiverInfo receiverInfo) {
    }
}
