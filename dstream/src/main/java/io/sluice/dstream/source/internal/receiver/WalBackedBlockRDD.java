package io.sluice.dstream.source.internal.receiver;

import io.sluice.rdd.internal.BlockStore;
import io.sluice.rdd.internal.ClassTags;
import io.sluice.recovery.internal.wal.FileWriteAheadLog;
import io.sluice.recovery.internal.wal.RecordHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.apache.spark.Partition;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.util.SerializableConfiguration;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The blocks of one batch of a receiver stream with the write-ahead log on: each partition reads its block from
 * the block manager, and, when the block is gone (the driver restarted, the executor was lost), from the log.
 */
final class WalBackedBlockRDD<T> extends RDD<T> {
    private final int streamId;
    private final List<ReceivedBlock> blocks;
    private final SerializableConfiguration hadoopConf;

    private record BlockPartition(int index, ReceivedBlock block) implements Partition {
    }

    WalBackedBlockRDD(SparkContext sc, int streamId, List<ReceivedBlock> blocks, SerializableConfiguration conf) {
        super(sc, scala.collection.immutable.List$.MODULE$.<org.apache.spark.Dependency<?>>empty(), ClassTags.any());
        this.streamId = streamId;
        this.blocks = List.copyOf(blocks);
        this.hadoopConf = conf;
    }

    @Override
    public Partition[] getPartitions() {
        Partition[] parts = new Partition[blocks.size()];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = new BlockPartition(i, blocks.get(i));
        }
        return parts;
    }

    @Override
    @SuppressWarnings("unchecked")
    public scala.collection.Iterator<T> compute(Partition split, TaskContext context) {
        ReceivedBlock block = ((BlockPartition) split).block();
        Optional<scala.collection.Iterator<T>> stored = BlockStore.get(streamId, block.uniqueId());
        if (stored.isPresent()) {
            return stored.get();
        }
        String ref = block.walRecord();
        int slash = ref.lastIndexOf('/');
        try (FileWriteAheadLog log = FileWriteAheadLog.open(ref.substring(0, slash), hadoopConf.value())) {
            RecordHandle handle = RecordHandle.parse(ref.substring(slash + 1));
            List<T> records = BlockStore.deserialize(log.read(handle), "write-ahead log segment "
                    + ref.substring(0, slash) + "/" + handle.segment() + " (record " + handle.encode() + ")");
            return CollectionConverters.asScala(records.iterator());
        } catch (IOException e) {
            throw new UncheckedIOException("block " + block.uniqueId() + " of stream " + streamId
                    + " is neither in the block manager nor readable from the write-ahead log: " + e.getMessage(), e);
        }
    }
}
