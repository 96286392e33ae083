package io.sluice.dstream.source;

import io.sluice.rdd.ExecutorLocation;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What a source that receives continuously (a receiver running in a long task on an executor) lets the engine
 * control, besides its batches: {@link InputSource#receiving()} returns it. The engine calls these on the driver:
 * {@link #startReceiving} once every source of the context has started, {@link #stopReceiving} first when the
 * context stops (so that everything received is known before the last batches), {@link #hasPendingInput} while a
 * graceful stop decides whether to run one more batch, and {@link #release} after the last batch. The autoscaler
 * reads where the receiver runs and moves it off an executor it is about to remove.
 */
public interface Receiving {
    /** The receiver's name as receiver events ({@code StreamingListener.ReceiverEvent}) give it. */
    String receiverName();

    /** Launches the receiver on an executor; called once, after every source of the context started. */
    void startReceiving();

    /**
     * Stops the receiver. {@code gracefully}: returns once it stored and reported everything it received, or
     * once {@code timeout} passed; otherwise it drops what it had not stored yet.
     */
    void stopReceiving(Duration timeout, boolean gracefully);

    /** Whether received data waits for a batch: a graceful stop then runs one more. */
    boolean hasPendingInput();

    /** Called once after the last batch ran: frees what was received and kept for batches. */
    void release();

    /** The executor the receiver runs on now; empty before it started, while it moves, and once it stopped. */
    Optional<String> executor();

    /** Whether the receiver stopped to move to another executor and has not started there yet. */
    boolean moving();

    /**
     * If the receiver runs on executor {@code executorId} (one about to be removed): stops it as a graceful stop
     * does, so that what it received is stored and known first, and starts it again preferring the executors
     * {@code to}. Returns whether it stopped to move.
     */
    boolean moveOff(String executorId, List<ExecutorLocation> to);
}
