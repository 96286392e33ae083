package io.sluice.dstream.internal.source.receiver;

/**
 * A block a receiver stored and reported.
 *
 * @param uniqueId the block's id within its stream, -1 when it held only skipped records (no data was stored)
 * @param walRecord where the write-ahead log holds the block's records, null without the log
 */
public record ReceivedBlock(long uniqueId, long records, long skipped, byte[] walRecord) {
    public boolean hasData() {
        return uniqueId >= 0;
    }
}
