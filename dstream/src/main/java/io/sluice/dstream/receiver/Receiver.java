package io.sluice.dstream.receiver;

import io.sluice.dstream.source.internal.receiver.ReceiverHost;
import java.io.Serializable;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.storage.StorageLevel;

/**
 * Receives data on an executor for a stream made with {@code StreamingContext.receiverStream}. As in Spark
 * Streaming: the engine ships the receiver to an executor, where one long-running task calls {@link #onStart()};
 * the receiver starts its own threads there and returns at once, hands records over with {@code store}, and
 * stops them in {@link #onStop()}. Stored records are cut into blocks every block interval
 * ({@code sluice.receiver.blockInterval}, 200 ms), kept in Spark's block manager at {@link #storageLevel()}, and
 * every batch reads the blocks received since the previous one.
 *
 * <p>{@link #store(Object)} buffers one record and returns (it waits only when the source's rate limit or the
 * block queue says so). The bulk forms store their records as one block and return once it is stored, logged
 * (write-ahead log on) and known to the driver: a reliable receiver acknowledges its source only then.
 *
 * <p>A receiver that loses its source calls {@link #restart(String)}: the engine calls {@link #onStop()}, waits
 * (starting at {@code sluice.receiver.restartDelay} and doubling up to {@code sluice.receiver.maxRestartDelay}
 * while restarts fail to bring data), calls {@link #onStart()} again and reports a "reconnected" receiver event.
 */
public abstract class Receiver<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final StorageLevel storageLevel;
    private transient volatile ReceiverHost<T> host;

    /** A receiver whose blocks are kept at {@link StorageLevel#MEMORY_AND_DISK_SER_2()}, Spark Streaming's default. */
    protected Receiver() {
        this(StorageLevel.MEMORY_AND_DISK_SER_2());
    }

    protected Receiver(StorageLevel storageLevel) {
        if (storageLevel == null || storageLevel.equals(StorageLevel.NONE())) {
            throw new IllegalArgumentException("a receiver needs a storage level other than NONE");
        }
        this.storageLevel = storageLevel;
    }

    /** Starts receiving: start threads (or async clients) that call {@code store}, and return at once. */
    public abstract void onStart();

    /** Stops receiving: stop the threads {@link #onStart()} started and release what they hold. */
    public abstract void onStop();

    public final StorageLevel storageLevel() {
        return storageLevel;
    }

    /** The host this receiver should run on, if it matters (e.g. where a device is attached). */
    public Optional<String> preferredLocation() {
        return Optional.empty();
    }

    /** Buffers one record into the current block. */
    public final void store(T record) {
        host().store(record);
    }

    /** Stores these records as one block; returns once the block is stored and known to the driver. */
    public final void store(Iterator<T> records) {
        host().storeBlock(records);
    }

    /** As {@link #store(Iterator)}. */
    public final void store(List<T> records) {
        host().storeBlock(records.iterator());
    }

    /**
     * Counts one record this receiver could not read, under the source's bad-record policy: with {@code skip}
     * it is counted in the batch's skipped records and logged with {@code reason}; with {@code fail} the
     * receiver stops and the next batch fails with {@code reason} in its error.
     */
    public final void reportBadRecord(String reason) {
        host().badRecord(reason);
    }

    /** Reports a problem to the driver (as a receiver "error" event) without stopping. */
    public final void reportError(String message, Throwable error) {
        host().reportError(message, error);
    }

    /** Restarts this receiver after the backoff delay (see the class comment). Returns at once. */
    public final void restart(String message) {
        host().restart(message, null, null);
    }

    public final void restart(String message, Throwable error) {
        host().restart(message, error, null);
    }

    /** Restarts after exactly {@code delay}. */
    public final void restart(String message, Throwable error, Duration delay) {
        host().restart(message, error, delay);
    }

    /** Stops this receiver for good; the stream then produces empty batches. */
    public final void stop(String message) {
        host().stop(message, null);
    }

    /** Stops this receiver for good because of {@code error}; the next batch fails with it. */
    public final void stop(String message, Throwable error) {
        host().stop(message, error);
    }

    /** Whether the receiver has been started and not (yet) stopped or restarting. */
    public final boolean isStarted() {
        ReceiverHost<T> h = host;
        return h != null && h.isReceiverStarted();
    }

    /** Whether the receiver is stopped (for good, or between a restart's stop and start): receiving threads exit. */
    public final boolean isStopped() {
        ReceiverHost<T> h = host;
        return h == null || h.isReceiverStopped();
    }

    /** The id of the stream this receiver feeds (its position among the context's receiver streams). */
    public final int streamId() {
        return host().streamId();
    }

    /** Engine use: connects this receiver to the executor-side host that runs it. */
    public void attachHost(ReceiverHost<T> host) {
        if (this.host != null && this.host != host) {
            throw new IllegalStateException("this receiver already runs in another host");
        }
        this.host = host;
    }

    private ReceiverHost<T> host() {
        ReceiverHost<T> h = host;
        if (h == null) {
            throw new IllegalStateException("the receiver is not running: store/restart/stop may only be called "
                    + "on an executor, after the engine called onStart()");
        }
        return h;
    }
}
