package io.sluice.dstream.source.internal.receiver;

import java.io.Serializable;
import io.sluice.rdd.internal.RpcEndpoints;

/** The messages between a receiver's supervisor (executor) and the receiver tracker (driver). */
final class Messages {
    private Messages() {
    }

    /** Supervisor to tracker, on start; the reply is a {@link Registered}. */
    record Register(int streamId, RpcEndpoints.Ref supervisor, String host, String executorId) implements Serializable {
    }

    /**
     * @param proceed false when the context is already stopping: the supervisor exits at once
     * @param generation unique per registration of this stream: block ids start with it
     * @param rate records per second the receiver may store, 0 for unlimited
     * @param driverTime the driver's clock (the context's {@code Clock}) when it replied
     */
    record Registered(boolean proceed, int generation, long rate, long driverTime) implements Serializable {
    }

    /**
     * Supervisor to tracker once a block is stored (and logged): the reply, an {@link Ack}, means the driver
     * knows it.
     *
     * @param uniqueId the block's id within the stream, -1 for a block of only skipped records
     * @param walRecord where the write-ahead log keeps the block, null without the log
     * @param writeTime the driver-clock time the block was logged at (see {@link ReceivedBlock}), -1 without the log
     * @param bytes what the block takes in the block manager
     */
    record AddBlock(int streamId, long uniqueId, long records, long skipped, long repaired, String firstProblem,
            String walRecord, long writeTime, long bytes) implements Serializable {
    }

    /**
     * Tracker to supervisor, the answer to {@link AddBlock} and {@link Buffered}: the driver's clock, and the bytes
     * of the stream's stored blocks that no completed batch has released yet.
     */
    record Ack(long driverTime, long bufferedBytes) implements Serializable {
    }

    /** Supervisor to tracker (ask), while it waits for batches to catch up: the answer is an {@link Ack}. */
    record Buffered(int streamId) implements Serializable {
    }

    /**
     * Supervisor to tracker: something listeners should hear (kind: started, stopped, error, reconnected, moving);
     * {@code error} is the stack trace of the error reported with it, or empty.
     */
    record Event(int streamId, String kind, String message, String error) implements Serializable {
    }

    /** Supervisor to tracker: the receiver stopped because of bad input or an error; the next batch fails. */
    record Failed(int streamId, String message, String error) implements Serializable {
    }

    /** Tracker to supervisor (ask): stop the receiver, store what it buffered unless {@code drop}, then reply. */
    record Stop(boolean drop) implements Serializable {
    }

    /**
     * Tracker to supervisor (ask): stop the receiver as a graceful stop does (what it buffered is stored and
     * reported first), then reply; the stream goes on, its job launched again on another executor.
     */
    record Move() implements Serializable {
    }

    /** Tracker to supervisor: the new rate limit in records per second (0: unlimited). */
    record UpdateRate(long rate) implements Serializable {
    }
}
