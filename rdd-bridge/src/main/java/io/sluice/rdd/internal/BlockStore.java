package io.sluice.rdd.internal;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.rdd.BlockRDD;
import org.apache.spark.rdd.RDD;
import org.apache.spark.serializer.DeserializationStream;
import org.apache.spark.serializer.SerializerInstance;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockResult;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.storage.StreamBlockId;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Blocks of received records in Spark's block manager, named by (stream id, block id) as Spark Streaming names
 * them, and the records' bytes in the context's serializer ({@code spark.serializer}, Kryo by default): what
 * receivers need from Spark's storage, kept here so that no other module names the block manager, block ids or
 * {@code SparkEnv}.
 */
public final class BlockStore {
    private BlockStore() {
    }

    /**
     * Stores a block in this JVM's block manager at {@code level} (serialized or not, as the level says); returns
     * the bytes it takes there (memory and disk).
     */
    public static long put(int streamId, long blockId, Iterator<?> records, StorageLevel level) {
        StreamBlockId id = new StreamBlockId(streamId, blockId);
        var blocks = SparkEnv.get().blockManager();
        if (!blocks.putIterator(id, CollectionConverters.asScala(records), level, true, ClassTags.any())) {
            throw new IllegalStateException("the block manager did not store " + id);
        }
        Option<org.apache.spark.storage.BlockStatus> status = blocks.getStatus(id);
        return status.isDefined() ? status.get().memSize() + status.get().diskSize() : 0;
    }

    /** The most this JVM's block manager may keep in memory (Spark's storage memory, on heap). */
    public static long storageMemory() {
        return SparkEnv.get().memoryManager().maxOnHeapStorageMemory();
    }

    /** The records of a block, read from any block manager that holds it; empty when none does. */
    @SuppressWarnings("unchecked")
    public static <T> Optional<scala.collection.Iterator<T>> get(int streamId, long blockId) {
        Option<BlockResult> stored = SparkEnv.get().blockManager().get(new StreamBlockId(streamId, blockId),
                ClassTags.any());
        return stored.isDefined() ? Optional.of((scala.collection.Iterator<T>) stored.get().data()) : Optional.empty();
    }

    /** Removes a block from every block manager (from the driver). */
    public static void remove(SparkContext sc, int streamId, long blockId) {
        sc.env().blockManager().master().removeBlock(new StreamBlockId(streamId, blockId));
    }

    /** The records of these blocks, one partition per block, in this order. */
    public static <T> RDD<T> rdd(SparkContext sc, int streamId, List<Long> blockIds) {
        BlockId[] ids = blockIds.stream().map(b -> new StreamBlockId(streamId, b)).toArray(BlockId[]::new);
        return new BlockRDD<>(sc, ids, ClassTags.any());
    }

    /** The records as one serialized value (a list), for a log: only records are written, never code. */
    public static byte[] serialize(List<?> records) {
        ByteBuffer buffer = serializer().serialize(new ArrayList<>(records), ClassTags.any());
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** What {@link #serialize} made. */
    @SuppressWarnings("unchecked")
    public static <T> List<T> deserialize(byte[] bytes) {
        return (List<T>) serializer().deserialize(ByteBuffer.wrap(bytes), ClassTags.any());
    }

    /**
     * The records of a serialization stream ({@code SerializerInstance.serializeStream}, records written one
     * after another): the bytes Spark Streaming's {@code Receiver.store(ByteBuffer)} takes.
     */
    @SuppressWarnings("unchecked")
    public static <T> List<T> readStream(ByteBuffer bytes) {
        byte[] copy = new byte[bytes.remaining()];
        bytes.duplicate().get(copy);
        List<T> records = new ArrayList<>();
        DeserializationStream in = serializer().deserializeStream(new ByteArrayInputStream(copy));
        try {
            CollectionConverters.asJava(in.asIterator()).forEachRemaining(r -> records.add((T) r));
        } finally {
            in.close();
        }
        return records;
    }

    private static SerializerInstance serializer() {
        return SparkEnv.get().serializer().newInstance();
    }
}
