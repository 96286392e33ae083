package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.source.internal.PackedLines;
import io.sluice.rdd.internal.Transforms;
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
    PACKED_LINES;

    /** How many records {@code element} holds: what the rate limit, the block and the batch count. */
    int records(Object element) {
        return this == RECORDS ? 1 : ((PackedLines) element).size();
    }

    /** The bytes {@code element} holds, where that is known without measuring (packed lines), else 0. */
    int bytes(Object element) {
        return this == RECORDS ? 0 : ((PackedLines) element).byteSize();
    }

    /** Whether {@link #bytes} tells every element's bytes (else a block's are estimated as it is cut). */
    boolean knowsBytes() {
        return this == PACKED_LINES;
    }

    /** The records of a batch whose blocks hold elements of this format. */
    @SuppressWarnings("unchecked")
    <T> JavaRDD<T> records(JavaRDD<?> elements) {
        return this == RECORDS ? (JavaRDD<T>) elements : unpack((JavaRDD<PackedLines>) elements);
    }

    /** Static: the task captures nothing. */
    @SuppressWarnings("unchecked")
    private static <T> JavaRDD<T> unpack(JavaRDD<PackedLines> blocks) {
        return Transforms.flatMap(blocks, block -> (java.util.Iterator<T>) block.iterator());
    }
}
