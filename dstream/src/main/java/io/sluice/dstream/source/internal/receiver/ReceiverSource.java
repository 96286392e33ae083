package io.sluice.dstream.source.internal.receiver;

import io.sluice.dstream.receiver.Receiver;
import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.Receiving;
import io.sluice.dstream.source.SourceContext;
import io.sluice.dstream.source.internal.BadInputException;
import io.sluice.dstream.source.internal.BadInputWarning;
import io.sluice.dstream.source.internal.PackedLines;
import io.sluice.dstream.source.internal.SourceSettings;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.Time;
import io.sluice.rdd.internal.BlockStore;
import io.sluice.rdd.internal.ClassTags;
import io.sluice.rdd.internal.Serialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.util.SerializableConfiguration;

/**
 * A stream fed by a receiver: the RDD of batch t reads, from the block manager, every block the receiver
 * reported since the previous batch (one partition per block). Once no batch needs them, the blocks are removed.
 * If the receiver stopped because of bad input or an error, every later batch fails with that error.
 */
public final class ReceiverSource<T> implements InputSource<T> {
    private record Allocation(List<ReceivedBlock> blocks, RDD<?> rdd) {
        long records() {
            return blocks.stream().mapToLong(ReceivedBlock::records).sum();
        }

        long skipped() {
            return blocks.stream().mapToLong(ReceivedBlock::skipped).sum();
        }

        long repaired() {
            return blocks.stream().mapToLong(ReceivedBlock::repaired).sum();
        }

        String firstProblem() {
            return blocks.stream().map(ReceivedBlock::firstProblem).filter(p -> p != null).findFirst().orElse(null);
        }
    }

    private final Function<SourceSettings, Receiver<?>> receiverFor;
    private final BlockFormat format;
    private final String detail;
    private final Function<SourceContext, ReceiverTracker> trackerOf;
    private final BatchTimeMap<Allocation> allocations = new BatchTimeMap<>();
    private final Receiving receiving = new ReceiverControl();
    private volatile ReceiverTracker tracker;
    private volatile TrackedReceiver stream;
    private volatile JavaSparkContext sc;
    private volatile BatchGrid grid;
    private SerializableConfiguration hadoopConf;

    /**
     * A stream of the records {@code receiver} stores. {@code detail} (e.g. the server's address) follows the
     * stream's name in messages; empty for none. {@code trackerOf} gives the tracker of the context that starts
     * the stream (one per context, made from the settings it has at start).
     */
    public static <T> ReceiverSource<T> of(Receiver<T> receiver, String detail,
            Function<SourceContext, ReceiverTracker> trackerOf) {
        sendable(receiver);
        return new ReceiverSource<>(settings -> receiver, BlockFormat.RECORDS, detail, trackerOf);
    }

    /** As {@link #of}, with the receiver made at start from the source settings (a socket's timeouts). */
    public static <T> ReceiverSource<T> madeAtStart(Function<SourceSettings, Receiver<T>> receiverFor, String detail,
            Function<SourceContext, ReceiverTracker> trackerOf) {
        return new ReceiverSource<>(receiverFor::apply, BlockFormat.RECORDS, detail, trackerOf);
    }

    /**
     * A stream of the lines a receiver (made at start from the source settings) stores packed ({@link
     * PackedLines}), made strings as tasks read them.
     */
    public static ReceiverSource<String> lines(Function<SourceSettings, Receiver<PackedLines>> receiverFor,
            String detail, Function<SourceContext, ReceiverTracker> trackerOf) {
        return new ReceiverSource<>(receiverFor::apply, BlockFormat.PACKED_LINES, detail, trackerOf);
    }

    /**
     * A stream of the records in the frames a receiver stores ({@code byte[]}s each holding a serialization
     * stream), deserialized as tasks read them.
     */
    public static <T> ReceiverSource<T> serialized(Function<SourceSettings, Receiver<byte[]>> receiverFor,
            String detail, Function<SourceContext, ReceiverTracker> trackerOf) {
        return new ReceiverSource<>(receiverFor::apply, BlockFormat.SERIALIZED, detail, trackerOf);
    }

    private ReceiverSource(Function<SourceSettings, Receiver<?>> receiverFor, BlockFormat format, String detail,
            Function<SourceContext, ReceiverTracker> trackerOf) {
        this.receiverFor = receiverFor;
        this.format = format;
        this.detail = detail;
        this.trackerOf = trackerOf;
    }

    private static Receiver<?> sendable(Receiver<?> receiver) {
        Serialization.problemWith(receiver).ifPresent(p -> {
            throw new IllegalArgumentException("the receiver " + receiver.getClass().getName() + " cannot be sent "
                    + "to an executor: " + p + " (make captured objects Serializable, or create them in onStart)");
        });
        return receiver;
    }

    /** The driver's state of this stream, once the context started. */
    public TrackedReceiver stream() {
        TrackedReceiver s = stream;
        if (s == null) {
            throw new IllegalStateException("the receiver stream has not started");
        }
        return s;
    }

    @Override
    public void start(SourceContext context) {
        sc = context.sparkContext();
        grid = context.grid();
        ReceiverTracker t = trackerOf.apply(context);
        tracker = t;
        Receiver<?> receiver = sendable(receiverFor.apply(t.settings()));
        TrackedReceiver s = t.register(receiver, format, context.name() + (detail.isEmpty() ? "" : " (" + detail + ")"),
                context.id(), context.rateLimit());
        t.openLog(s);
        if (!context.restoredPositions().isEmpty()) {
            s.blocks().restore(context.restoredPositions());
        }
        stream = s;
        // Backpressure (the rate limit is empty when it is off): the estimate after each batch goes to the receiver.
        context.addStreamingListener(new StreamingListener() {
            @Override
            public void onBatchCompleted(BatchCompleted event) {
                context.rateLimit().ifPresent(ReceiverSource.this::limitRate);
            }
        });
    }

    @Override
    public Optional<Receiving> receiving() {
        return Optional.of(receiving);
    }

    /** The engine names the stream and the batch in what this throws. */
    @Override
    public Optional<JavaRDD<T>> compute(Time time) {
        TrackedReceiver s = stream();
        String failure = s.failure();
        if (failure != null) {
            throw new BadInputException(failure);
        }
        List<ReceivedBlock> blocks = s.blocks().allocate(time);
        List<Long> ids = new ArrayList<>();
        List<ReceivedBlock> withData = new ArrayList<>();
        for (ReceivedBlock b : blocks) {
            if (b.hasData()) {
                ids.add(b.uniqueId());
                withData.add(b);
            }
        }
        RDD<Object> rdd = null;
        if (!ids.isEmpty()) {
            rdd = withData.get(0).walRecord() != null
                    ? new WalBackedBlockRDD<>(sc.sc(), s.streamId(), withData, hadoopConf())
                    : BlockStore.<Object>rdd(sc.sc(), s.streamId(), ids);
        }
        Allocation allocation = new Allocation(blocks, rdd);
        allocations.put(time, allocation);
        BadInputWarning.log(s.source(), time, allocation.repaired(), allocation.skipped(), allocation.firstProblem());
        if (rdd == null) {
            return Optional.of(sc.emptyRDD());
        }
        return Optional.of(format.records(new JavaRDD<>(rdd, ClassTags.any())));
    }

    @Override
    public BatchReport report(Time time) {
        return allocations.get(time).map(a -> new BatchReport(a.records(), a.skipped(), a.repaired()))
                .orElse(BatchReport.NONE);
    }

    /**
     * The batch's blocks are processed: they no longer count against the receiver's buffering bound, even while
     * a window keeps them stored.
     */
    @Override
    public void batchDone(Time time) {
        allocations.get(time).ifPresent(a -> a.blocks().forEach(b -> stream().released(b.uniqueId())));
    }

    @Override
    public void forgetOlderThan(Time oldestKept) {
        for (Allocation a : allocations.forgetThrough(oldestKept).values()) {
            removeBlocks(a.blocks());
        }
        stream().blocks().forgetUpTo(oldestKept);
        if (oldestKept.milliseconds() != Long.MAX_VALUE) {
            tracker.cleanLogs(stream(), oldestKept, grid.step());
        }
    }

    private void removeBlocks(List<ReceivedBlock> blocks) {
        for (ReceivedBlock b : blocks) {
            if (b.hasData()) {
                BlockStore.remove(sc.sc(), stream().streamId(), b.uniqueId());
                stream().released(b.uniqueId());
            }
        }
    }

    private synchronized SerializableConfiguration hadoopConf() {
        if (hadoopConf == null) {
            hadoopConf = new SerializableConfiguration(sc.hadoopConfiguration());
        }
        return hadoopConf;
    }

    // ---- recovery: with the write-ahead log, a batch run again after a restart reads the blocks it read ----

    /** Asked once started: whether blocks are logged is a setting read at start. */
    @Override
    public boolean replayable() {
        if (tracker == null) {
            throw new IllegalStateException("a receiver stream knows whether it replays once it started");
        }
        return tracker.writeAheadLog();
    }

    @Override
    public Optional<String> positionAfter(Time time) {
        if (time.equals(grid.zero())) { // before the first batch: a restart that recomputes it reads from there
            return Optional.ofNullable(stream().blocks().positionBeforeFirstBatch());
        }
        return Optional.ofNullable(stream().blocks().positionAfter(time));
    }

    /** After the last batch: removes the blocks of remembered batches and those no batch took. */
    private void releaseBlocks() {
        if (stream == null) {
            return;
        }
        forgetOlderThan(new Time(Long.MAX_VALUE));
        removeBlocks(stream.blocks().drain());
    }

    /**
     * Backpressure: holds the receiver to {@code limit} records per second (never above its configured maximum),
     * sending the rate to its executor when it changed.
     */
    private void limitRate(long limit) {
        TrackedReceiver s = stream();
        long rate = s.maxRate() > 0 ? Math.min(limit, s.maxRate()) : limit;
        if (rate != s.rate()) {
            tracker.updateRate(s, rate);
        }
    }

    /** What the engine controls of this source's receiver, through the tracker of its context. */
    private final class ReceiverControl implements Receiving {
        @Override
        public String receiverName() {
            return stream().source();
        }

        @Override
        public void startReceiving() {
            tracker.launch(stream());
        }

        @Override
        public void stopReceiving(Duration timeout, boolean gracefully) {
            if (stream != null) {
                tracker.stop(stream, timeout, gracefully);
            }
        }

        @Override
        public boolean hasPendingInput() {
            return stream != null && stream.blocks().hasUnallocated();
        }

        @Override
        public void release() {
            releaseBlocks();
        }

        @Override
        public Optional<String> executor() {
            return stream == null ? Optional.empty() : Optional.ofNullable(stream.executorId());
        }

        @Override
        public boolean moving() {
            return stream != null && stream.moving();
        }

        @Override
        public boolean moveOff(String executorId, List<ExecutorLocation> to) {
            return stream != null && tracker.moveOff(stream, executorId, to);
        }
    }
}
