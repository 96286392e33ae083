package io.sluice.dstream.receiver;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.storage.StorageLevel;
import scala.collection.mutable.ArrayBuffer;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Receives data on an executor for a stream made with {@code StreamingContext.receiverStream}. As in Spark
 * Streaming: the engine ships the receiver to an executor, where one long-running task calls {@link #onStart()};
 * the receiver starts its own threads there and returns at once, hands records over with {@code store}, and
 * stops them in {@link #onStop()}. Stored records are cut into blocks every block interval
 * ({@code sluice.receiver.blockInterval}; unset, half the batch interval, at most 200 ms), kept in Spark's block manager at {@link #storageLevel()}, and
 * every batch reads the blocks received since the previous one.
 *
 * <p>{@link #store(Object)} buffers one record and returns (it waits only when the source's rate limit or the
 * block queue says so). The bulk forms store their records as one block and return once it is stored, logged
 * (write-ahead log on) and known to the driver: a reliable receiver acknowledges its source only then.
 *
 * <p>A receiver that loses its source calls {@link #restart(String)}: the engine calls {@link #onStop()}, waits
 * (starting at {@code sluice.receiver.restartDelay} and doubling up to {@code sluice.receiver.maxRestartDelay}
 * while restarts fail to bring data), calls {@link #onStart()} again and reports a "reconnected" receiver event.
 *
 * <p>Porting from Spark Streaming: every {@code store} and {@code restart} form of Spark's {@code Receiver} is
 * here. The {@code metadata} of the bulk forms is accepted and not used: Spark Streaming keeps it only in its
 * driver's private block records, which no API reads. {@code preferredLocation()} returns a
 * {@code java.util.Optional} ({@code Optional.of(host)} where Spark's returns {@code Some(host)}).
 */
public abstract class Receiver<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final StorageLevel storageLevel;
    private transient volatile ReceiverContext<T> context;

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
        context().store(record);
    }

    /** Stores these records as one block; returns once the block is stored and known to the driver. */
    public final void store(Iterator<T> records) {
        context().store(records);
    }

    /** As {@link #store(Iterator)}; {@code metadata} is not used (see the class comment). */
    public final void store(Iterator<T> records, Object metadata) {
        context().store(records);
    }

    /** As {@link #store(Iterator)}. */
    public final void store(List<T> records) {
        context().store(records.iterator());
    }

    /** As {@link #store(Iterator)}; {@code metadata} is not used (see the class comment). */
    public final void store(List<T> records, Object metadata) {
        context().store(records.iterator());
    }

    /** As {@link #store(Iterator)}: Spark Streaming's form. */
    public final void store(ArrayBuffer<T> records) {
        context().store(CollectionConverters.asJava(records.iterator()));
    }

    /** As {@link #store(Iterator)}; {@code metadata} is not used (see the class comment). */
    public final void store(ArrayBuffer<T> records, Object metadata) {
        context().store(CollectionConverters.asJava(records.iterator()));
    }

    /**
     * Stores records of {@code T} serialized in {@code bytes} as one block, as {@link #store(Iterator)}: the bytes
     * are a serialization stream written with the context's serializer ({@code spark.serializer}, Kryo by
     * default), as in Spark Streaming. They are read on the executor, so the batch counts their records.
     */
    public final void store(ByteBuffer bytes) {
        context().store(bytes);
    }

    /** As {@link #store(ByteBuffer)}; {@code metadata} is not used (see the class comment). */
    public final void store(ByteBuffer bytes, Object metadata) {
        context().store(bytes);
    }

    /**
     * Counts one record this receiver could not read, under the source's bad-record policy
     * ({@code sluice.input.badRecords}): with {@code replace} (the default: the record cannot be repaired, as it
     * was not stored) or {@code skip} it is counted in the batch's skipped records, and the batch's warning
     * names the first {@code reason}; with {@code fail} the receiver stops and the next batch fails with
     * {@code reason} in its error.
     */
    public final void reportBadRecord(String reason) {
        context().reportBadRecord(reason);
    }

    /**
     * Counts one record this receiver stored repaired (malformed bytes decoded as U+FFFD, a line cut short): the
     * batch counts it in its repaired records, and its warning names the first {@code position}.
     */
    public final void reportRepairedRecord(String position) {
        context().reportRepairedRecord(position);
    }

    /** Reports a problem to the driver (as a receiver "error" event) without stopping. */
    public final void reportError(String message, Throwable error) {
        context().reportError(message, error);
    }

    /** Restarts this receiver after the backoff delay (see the class comment). Returns at once. */
    public final void restart(String message) {
        context().restart(message, null, null);
    }

    public final void restart(String message, Throwable error) {
        context().restart(message, error, null);
    }

    /** Restarts after exactly {@code delay}. */
    public final void restart(String message, Throwable error, Duration delay) {
        context().restart(message, error, delay);
    }

    /** Restarts after exactly {@code millisecond} ms: Spark Streaming's form. */
    public final void restart(String message, Throwable error, int millisecond) {
        if (millisecond < 0) {
            throw new IllegalArgumentException("a restart delay cannot be negative, was " + millisecond + " ms");
        }
        context().restart(message, error, Duration.ofMillis(millisecond));
    }

    /** Stops this receiver for good; the stream then produces empty batches. */
    public final void stop(String message) {
        context().stop(message, null);
    }

    /** Stops this receiver for good because of {@code error}; the next batch fails with it. */
    public final void stop(String message, Throwable error) {
        context().stop(message, error);
    }

    /** Whether the receiver has been started and not (yet) stopped or restarting. */
    public final boolean isStarted() {
        ReceiverContext<T> c = context;
        return c != null && c.isStarted();
    }

    /** Whether the receiver is stopped (for good, or between a restart's stop and start): receiving threads exit. */
    public final boolean isStopped() {
        ReceiverContext<T> c = context;
        return c == null || c.isStopped();
    }

    /** The id of the stream this receiver feeds (its position among the context's receiver streams). */
    public final int streamId() {
        return context().streamId();
    }

    /**
     * Connects this receiver to the context that runs it: the engine calls it on the executor, once per copy of
     * the receiver, before {@link #onStart()}; a test may call it with a context of its own.
     */
    public final void bind(ReceiverContext<T> context) {
        if (context == null) {
            throw new IllegalArgumentException("a receiver needs a context");
        }
        if (this.context != null && this.context != context) {
            throw new IllegalStateException("this receiver already runs in another context");
        }
        this.context = context;
    }

    private ReceiverContext<T> context() {
        ReceiverContext<T> c = context;
        if (c == null) {
            throw new IllegalStateException("the receiver is not running: store/restart/stop may only be called "
                    + "on an executor, after the engine called onStart()");
        }
        return c;
    }
}
