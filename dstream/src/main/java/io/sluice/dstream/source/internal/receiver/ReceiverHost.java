package io.sluice.dstream.source.internal.receiver;

import java.time.Duration;
import java.util.Iterator;

/** What a running {@link io.sluice.dstream.receiver.Receiver} calls into: the executor-side supervisor. */
public interface ReceiverHost<T> {
    void store(T record);

    void storeBlock(Iterator<T> records);

    /** Buffers lines packed as bytes (engine text receivers): one element holding {@code lines.size()} records. */
    void storePacked(io.sluice.dstream.source.internal.PackedLines lines);

    void badRecord(String reason);

    void reportError(String message, Throwable error);

    /** {@code delay} null means: the supervisor's backoff. */
    void restart(String message, Throwable error, Duration delay);

    void stop(String message, Throwable error);

    boolean isReceiverStarted();

    boolean isReceiverStopped();

    int streamId();
}
