package io.sluice.dstream.receiver;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Iterator;

/**
 * What a running {@link Receiver} talks to: the engine's side of one receiver on its executor. The engine binds a
 * receiver to its context ({@link Receiver#bind}) before it calls {@link Receiver#onStart()}; the receiver's
 * {@code store}, {@code restart}, {@code stop} and report methods call into it. A test can bind a receiver to a
 * context of its own to drive it without Spark.
 */
public interface ReceiverContext<T> {
    /** Buffers one record into the current block (waits only for the rate limit or a full block queue). */
    void store(T record);

    /** Stores these records as one block; returns once the block is stored (and logged) and known to the driver. */
    void store(Iterator<T> records);

    /**
     * Stores the records serialized in {@code bytes} as one block, as {@link #store(Iterator)}: the bytes are a
     * serialization stream of records of {@code T} written with the context's serializer ({@code spark.serializer},
     * Kryo by default), which is how Spark Streaming reads the bytes a receiver stores.
     */
    void store(ByteBuffer bytes);

    /** Counts one record the receiver could not read, under the source's bad-record policy. */
    void reportBadRecord(String reason);

    /**
     * Counts one record the receiver stored repaired (e.g. malformed bytes decoded as U+FFFD); {@code position}
     * says where it was, for the batch's warning.
     */
    void reportRepairedRecord(String position);

    /** Reports a problem to the driver (a receiver "error" event) without stopping. */
    void reportError(String message, Throwable error);

    /**
     * Stops the receiver, waits, and starts it again; returns at once. {@code error} may be null; a null
     * {@code delay} waits the engine's backoff.
     */
    void restart(String message, Throwable error, Duration delay);

    /** Stops the receiver for good; with an {@code error} (may be null) the next batch fails with it. */
    void stop(String message, Throwable error);

    /** Whether the receiver has been started and is not stopped or restarting. */
    boolean isStarted();

    /** Whether the receiver is stopped (for good, or between a restart's stop and start). */
    boolean isStopped();

    /** The id of the stream the receiver feeds. */
    int streamId();
}
