package io.sluice.dstream;

import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.SourceContext;
import io.sluice.rdd.Time;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.LongStream;
import org.apache.spark.api.java.JavaRDD;

/**
 * A test source replayable by position, like a Kafka partition, written as a user would against the public
 * source SPI: batch t holds the offsets after the previous batch's position up to its own; the position after
 * each batch goes into the checkpoint, and a batch run again after a restart reads exactly the offsets it
 * read before the crash.
 */
public final class OffsetSource implements InputSource<Long> {
    private final long perBatch;
    private final NavigableMap<Time, Long> ends = new ConcurrentSkipListMap<>();
    private volatile SourceContext context;

    private OffsetSource(long perBatch) {
        this.perBatch = perBatch;
    }

    public static DStream<Long> stream(StreamingContext context, long perBatch) {
        return context.inputStream(new OffsetSource(perBatch));
    }

    @Override
    public void start(SourceContext context) {
        this.context = context;
        context.restoredPositions().forEach((t, p) -> ends.put(t, Long.parseLong(p)));
    }

    @Override
    public Optional<JavaRDD<Long>> compute(Time time) {
        Map.Entry<Time, Long> before = ends.lowerEntry(time);
        long start = before == null ? 0 : before.getValue();
        long end = ends.computeIfAbsent(time, t -> start + perBatch);
        List<Long> offsets = LongStream.range(start, end).boxed().toList();
        return Optional.of(context.sparkContext().parallelize(offsets, 2));
    }

    @Override
    public boolean replayable() {
        return true;
    }

    @Override
    public Optional<String> positionAfter(Time time) {
        return Optional.ofNullable(ends.get(time)).map(String::valueOf);
    }
}
