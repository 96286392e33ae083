package io.sluice.dstream.source.internal.receiver;

/**
 * A block a receiver stored and reported.
 *
 * @param uniqueId the block's id within its stream, -1 when it held only skipped records (no data was stored)
 * @param repaired records of the block stored repaired (counted in {@code records} too)
 * @param firstProblem where the block's first skipped or repaired record was, null if none
 * @param walRecord where the write-ahead log holds the block's records ({@code <log dir>/<record handle>}),
 *     null without the log
 * @param sequence the order the driver learnt of the block in, per stream (kept across restarts with the log)
 * @param writeTime the log's record time of the block: the driver's clock (the context's {@code Clock}) as the
 *     supervisor last heard it before logging the block, so never later than the block; -1 without the log
 */
public record ReceivedBlock(long uniqueId, long records, long skipped, long repaired, String firstProblem,
        String walRecord, long sequence, long writeTime) implements java.io.Serializable {
    public boolean hasData() {
        return uniqueId >= 0;
    }
}
