package io.sluice.rdd.internal;

import com.esotericsoftware.kryo.KryoException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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
import org.apache.spark.serializer.SerializationStream;
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

    /**
     * The bytes {@code records} take on the heap, estimated as Spark's block manager estimates a deserialized
     * block (large collections are sampled, so the cost does not grow with their size).
     */
    public static long estimateSize(Object records) {
        return org.apache.spark.util.SizeEstimator.estimate(records);
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

    /**
     * The records one after another, for a log: only records are written, never code, and only records of
     * registered classes ({@link SharedKryoSerializer#forFiles}), so that reading the log back never resolves
     * a class the application did not register.
     */
    public static byte[] serialize(List<?> records) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SerializationStream out = SharedKryoSerializer.forFiles().newInstance().serializeStream(bytes);
        try {
            for (Object r : records) {
                out.writeObject(r, ClassTags.any());
            }
        } catch (KryoException | IllegalArgumentException e) {
            Optional<FileKryo.UnwritableClassException> refused = FileKryo.UnwritableClassException.of(e);
            if (refused.isPresent()) {
                throw refused.get();
            }
            throw new IllegalArgumentException("records written to a file must be of classes registered with Kryo "
                    + "(add them to spark.kryo.classesToRegister or a registrator): " + e.getMessage(), e);
        } finally {
            out.close();
        }
        return bytes.toByteArray();
    }

    /** What {@link #serialize} made, read from {@code file} (named in errors). */
    public static <T> List<T> deserialize(byte[] bytes, String file) throws IOException {
        try {
            return readAll(SharedKryoSerializer.forFiles().newInstance(), new ByteArrayInputStream(bytes));
        } catch (KryoException | IllegalArgumentException e) {
            throw new IOException(file + " holds records that cannot be read (only classes registered with Kryo are "
                    + "read from files; the class was not initialised): " + e.getMessage(), e);
        }
    }

    /**
     * The records of a serialization stream ({@code SerializerInstance.serializeStream}, records written one
     * after another): the bytes Spark Streaming's {@code Receiver.store(ByteBuffer)} takes.
     */
    public static <T> List<T> readStream(ByteBuffer bytes) {
        byte[] copy = new byte[bytes.remaining()];
        bytes.duplicate().get(copy);
        return readAll(serializer(), new ByteArrayInputStream(copy));
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> readAll(SerializerInstance serializer, InputStream bytes) {
        List<T> records = new ArrayList<>();
        DeserializationStream in = serializer.deserializeStream(bytes);
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
