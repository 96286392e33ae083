package io.sluice.recovery.internal.wal;

import io.sluice.rdd.Time;
import java.io.IOException;
import java.util.List;

/**
 * A durable log of records that sources receive, each tagged with the batch time it belongs to. A record is
 * durable when {@link #write} returns, so a source may acknowledge its sender only then; after a driver
 * crash, {@link #readAll} gives back every acknowledged record, and {@link #clean} drops records once the
 * checkpoint of their batch is complete.
 *
 * <p>Implementations are thread-safe. Records are opaque bytes: what they mean (a block of received
 * records, serialized by the source) is the caller's business.
 */
public interface WriteAheadLog extends AutoCloseable {
    /** Appends {@code record} for batch {@code time}; returns once the record is durable. */
    RecordHandle write(byte[] record, Time time) throws IOException;

    /** The record {@code handle} points at; throws if it was cleaned, or fails its checksum. */
    byte[] read(RecordHandle handle) throws IOException;

    /**
     * Every record still in the log, in the order they were written. A record torn by a crash while it was
     * being written (never acknowledged) is skipped with a warning.
     */
    List<LoggedRecord> readAll() throws IOException;

    /**
     * Forgets records whose time is before {@code threshold}. Implementations may keep some such records a
     * little longer (a file segment is deleted only when all of its records are older), never fewer.
     */
    void clean(Time threshold) throws IOException;

    @Override
    void close() throws IOException;
}
