package io.sluice.dstream.source.internal.receiver;

import io.sluice.rdd.internal.BlockStore;
import io.sluice.rdd.internal.RpcEndpoints;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Stores one registered receiver's blocks and reports them to the driver: each block goes first to the
 * write-ahead log (if on), then to the block manager, then to the driver, which logs that it has the block before
 * it replies. Only then does the store return, so a receiver that acknowledges its source after {@code store}
 * never acknowledges data a crash could lose. Block ids are the registration's generation and a sequence number.
 */
final class BlockReporter {
    private final ReceiverSpec spec;
    private final RpcEndpoints.Ref driver;
    private final BufferBound bound;
    private final int generation;
    private final AtomicLong sequence = new AtomicLong();
    /** The driver's clock as its last reply told it: the write-ahead log's record times. */
    private final AtomicLong driverTime;
    private final ReceivedDataLog wal; // null with the log off

    /** After the driver accepted the registration {@code registered}; opens the receiver's data log if on. */
    BlockReporter(ReceiverSpec spec, RpcEndpoints.Ref driver, BufferBound bound, Messages.Registered registered) {
        this.spec = spec;
        this.driver = driver;
        this.bound = bound;
        this.generation = registered.generation();
        this.driverTime = new AtomicLong(registered.driverTime());
        try {
            this.wal = spec.walDirectory() == null ? null
                    : ReceivedDataLog.open(spec.walDirectory(), spec.hadoopConf().value());
        } catch (IOException e) {
            throw new IllegalStateException(spec.source() + ": cannot open the write-ahead log in "
                    + spec.walDirectory() + ": " + e, e);
        }
    }

    /**
     * Stores and reports a block of {@code count} records ({@code pendingBytes} of them counted as waiting on
     * the executor until now), then waits while the driver reports more stored than the bound and {@code
     * running} holds.
     */
    void push(List<Object> records, long count, long pendingBytes, long skipped, long repaired, String firstProblem,
            BooleanSupplier running) throws IOException, InterruptedException {
        long id = -1;
        long bytes = 0;
        String walRecord = null;
        long writeTime = -1;
        if (!records.isEmpty() && wal != null) {
            // Records are tagged with the driver's clock as last heard (at most one report old, so never newer
            // than the block): the driver cleans the log by the times it knows, and reads no executor's clock.
            writeTime = driverTime.get();
            walRecord = wal.write(records, writeTime);
        }
        if (!records.isEmpty()) {
            id = ((long) generation << 32) | sequence.incrementAndGet();
            bytes = BlockStore.put(spec.streamId(), id, records.iterator(), spec.storageLevel());
        }
        Messages.Ack ack = driver.ask(new Messages.AddBlock(spec.streamId(), id, count, skipped, repaired, firstProblem,
                walRecord, writeTime, bytes), Messages.Ack.class);
        driverTime.accumulateAndGet(ack.driverTime(), Math::max);
        bound.stored(pendingBytes, ack.bufferedBytes());
        bound.awaitStoredRoom(this::askBuffered, running);
    }

    private long askBuffered() {
        return driver.ask(new Messages.Buffered(spec.streamId()), Messages.Ack.class).bufferedBytes();
    }

    void close() {
        if (wal != null) {
            wal.close(spec.source());
        }
    }
}
