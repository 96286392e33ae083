package io.sluice.dstream.internal.source.receiver;

import io.sluice.rdd.internal.ClassTags;
import io.sluice.rdd.internal.Transforms;
import io.sluice.dstream.internal.InputOperator;
import io.sluice.dstream.internal.OperatorException;
import io.sluice.dstream.internal.Rdds;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.source.BadInputException;
import io.sluice.dstream.internal.source.PackedLines;
import io.sluice.dstream.internal.source.rate.BatchCounts;
import io.sluice.dstream.internal.source.rate.RateLimitedSource;
import io.sluice.dstream.receiver.Receiver;
import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.BlockRDD;
import org.apache.spark.rdd.RDD;
import org.apache.spark.util.SerializableConfiguration;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.StreamBlockId;

/**
 * A stream fed by a receiver: the RDD of batch t reads, from the block manager, every block the receiver
 * reported since the previous batch (one partition per block). Once no batch needs them, the blocks are removed.
 * If the receiver stopped because of bad input or an error, every later batch fails with that error.
 */
public final class ReceiverInputOperator<T> extends InputOperator<T> implements RateLimitedSource {
    private record Allocation(List<ReceivedBlock> blocks, RDD<?> rdd) {
        long records() {
            return blocks.stream().mapToLong(ReceivedBlock::records).sum();
        }

        long skipped() {
            return blocks.stream().mapToLong(ReceivedBlock::skipped).sum();
        }
    }

    private final ReceiverTracker tracker;
    private final ReceiverStream stream;
    private final NavigableMap<Time, Allocation> allocations = new ConcurrentSkipListMap<>();
    private final BatchCounts counts = new BatchCounts();
    private SerializableConfiguration hadoopConf;

    private final boolean packedLines;

    public ReceiverInputOperator(StreamGraph graph, String kind, Receiver<T> receiver, String detail,
            ReceiverTracker tracker) {
        super(graph, kind, List.of(receiver));
        this.packedLines = receiver instanceof SocketReceiver<?> s && s.packsLines();
        this.tracker = tracker;
        this.stream = tracker.register(receiver, describe() + (detail.isEmpty() ? "" : " (" + detail + ")"),
                this::stableId);
    }

    public ReceiverStream stream() {
        return stream;
    }

    @Override
    protected Optional<JavaRDD<T>> compute(Time time) {
        String failure = stream.failure();
        if (failure != null) {
            throw new OperatorException(stream.source(), time, new BadInputException(failure));
        }
        List<ReceivedBlock> blocks = stream.allocate(time);
        List<BlockId> ids = new ArrayList<>();
        List<ReceivedBlock> withData = new ArrayList<>();
        for (ReceivedBlock b : blocks) {
            if (b.hasData()) {
                ids.add(new StreamBlockId(stream.streamId(), b.uniqueId()));
                withData.add(b);
            }
        }
        RDD<T> rdd = null;
        if (!ids.isEmpty()) {
            rdd = withData.get(0).walRecord() != null
                    ? new WalBackedBlockRDD<>(graph().sparkContext().sc(), stream.streamId(), withData, hadoopConf())
                    : new BlockRDD<>(graph().sparkContext().sc(), ids.toArray(BlockId[]::new), ClassTags.any());
        }
        Allocation allocation = new Allocation(blocks, rdd);
        allocations.put(time, allocation);
        counts.put(time, allocation.records());
        if (rdd == null) {
            return Optional.of(graph().sparkContext().emptyRDD());
        }
        JavaRDD<T> read = new JavaRDD<>(rdd, ClassTags.any());
        return Optional.of(packedLines ? unpack(read) : read);
    }

    /** The lines of blocks of {@link PackedLines}, made strings as a task reads them. Static: captures nothing. */
    @SuppressWarnings("unchecked")
    private static <T> JavaRDD<T> unpack(JavaRDD<T> blocks) {
        return Transforms.flatMap(blocks, block -> (java.util.Iterator<T>) ((PackedLines) block).iterator());
    }

    @Override
    public Report report(Time time) {
        Allocation a = allocations.get(time);
        return a == null ? Report.NONE : new Report(a.records(), a.skipped());
    }

    @Override
    protected void forgetOlderThan(Time oldestKept) {
        Map<Time, Allocation> old = allocations.headMap(oldestKept, true);
        for (Allocation a : old.values()) {
            removeBlocks(a.blocks());
        }
        old.clear();
        stream.forgetUpTo(oldestKept);
        if (oldestKept.milliseconds() != Long.MAX_VALUE) {
            tracker.cleanLogs(stream, oldestKept, graph().batchInterval());
        }
    }

    private void removeBlocks(List<ReceivedBlock> blocks) {
        var master = graph().sparkContext().sc().env().blockManager().master();
        for (ReceivedBlock b : blocks) {
            if (b.hasData()) {
                master.removeBlock(new StreamBlockId(stream.streamId(), b.uniqueId()));
            }
        }
    }

    private SerializableConfiguration hadoopConf() {
        if (hadoopConf == null) {
            hadoopConf = new SerializableConfiguration(graph().sparkContext().hadoopConfiguration());
        }
        return hadoopConf;
    }

    // ---- recovery: with the write-ahead log, a batch run again after a restart reads the blocks it read ----

    @Override
    public boolean replayable() {
        return tracker.writeAheadLog();
    }

    @Override
    public Optional<String> positionAfter(Time time) {
        if (time.equals(zeroTime())) { // before the first batch: a restart that recomputes it reads from there
            return Optional.ofNullable(stream.positionBeforeFirstBatch());
        }
        return Optional.ofNullable(stream.positionAfter(time));
    }

    @Override
    public void restorePositions(NavigableMap<Time, String> positions) {
        tracker.openLog(stream);
        stream.restore(positions);
    }

    /** After the last batch: removes the blocks of remembered batches and those no batch took. */
    public void releaseBlocks() {
        forgetOlderThan(new Time(Long.MAX_VALUE));
        removeBlocks(stream.drain());
    }

    @Override
    public String sourceName() {
        return stream.source();
    }

    @Override
    public long maxRate() {
        return stream.maxRate();
    }

    @Override
    public long currentRate() {
        return stream.rate();
    }

    @Override
    public void updateRate(long recordsPerSecond) {
        tracker.updateRate(stream, recordsPerSecond);
    }

    @Override
    public long recordsAt(Time time) {
        return counts.get(time);
    }
}
