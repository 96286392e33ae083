package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.source.internal.PackedLines;
import io.sluice.rdd.internal.BlockStore;
import io.sluice.rdd.internal.Transforms;
import java.nio.ByteBuffer;
import org.apache.spark.api.java.JavaRDD;

/**
 * What the elements a receiver stores are. Whoever creates the stream says so (the context, for its socket text
 * stream), so that neither the supervisor nor the source ever looks at the receiver's class.
 */
enum BlockFormat {
    /** Each element is one record: every user receiver. */
    RECORDS,
    /**
     * Each element is a {@link PackedLines} of many lines, which become strings only as a task reads the batch: the
     * socket text receiver's, which saves a string per line on the receiver and in the block.
     */
    PACKED_LINES,
    /**
     * Each element is a {@code byte[]} holding a serialization stream of records (a frame of {@code
     * rawSocketStream}), deserialized only as a task reads the batch. Its records are not counted, as in Spark
     * Streaming, whose raw blocks report no record count: counting would mean deserializing on the receiver.
     */
    SERIALIZED;

    /** How many records {@code element} holds: what the rate limit, the block and the batch count. */
    int records(Object element) {
        return switch (this) {
            case RECORDS -> 1;
            case PACKED_LINES -> ((PackedLines) element).size();
            case SERIALIZED -> 0;
        };
    }

    /** The bytes {@code element} holds, where that is known without measuring (packed lines, frames), else 0. */
    int bytes(Object element) {
        return switch (this) {
            case RECORDS -> 0;
            case PACKED_LINES -> ((PackedLines) element).byteSize();
            case SERIALIZED -> ((byte[]) element).length;
        };
    }

    /** Whether {@link #bytes} tells every element's bytes (else a block's are estimated as it is cut). */
    boolean knowsBytes() {
        return this != RECORDS;
    }

    /** The records of a batch whose blocks hold elements of this format. */
    @SuppressWarnings("unchecked")
    <T> JavaRDD<T> records(JavaRDD<?> elements) {
        return switch (this) {
            case RECORDS -> (JavaRDD<T>) elements;
            case PACKED_LINES -> unpack((JavaRDD<PackedLines>) elements);
            case SERIALIZED -> deserialize((JavaRDD<byte[]>) elements);
        };
    }

    /** Static: the task captures nothing; the executor's serializer reads what the sender's wrote. */
    private static <T> JavaRDD<T> deserialize(JavaRDD<byte[]> frames) {
        return Transforms.flatMap(frames, frame -> BlockStore.<T>readStream(ByteBuffer.wrap(frame)).iterator());
    }

    /** Static: the task captures nothing. */
    @SuppressWarnings("unchecked")
    private static <T> JavaRDD<T> unpack(JavaRDD<PackedLines> blocks) {
        return Transforms.flatMap(blocks, block -> (java.util.Iterator<T>) block.iterator());
    }
}
