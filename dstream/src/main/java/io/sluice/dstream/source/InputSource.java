package io.sluice.dstream.source;

import io.sluice.rdd.Time;
import java.util.Optional;
import java.util.function.Function;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A source of input for a stream: the RDD of each batch, and where it stands after a batch, in a form the
 * checkpoint can store. Spark Streaming's {@code InputDStream} with its {@code compute(validTime)}; Kafka's
 * direct stream is the model of a replayable source (a batch is a range of offsets, computed again after a
 * restart from the offsets saved in the checkpoint). Add one with {@code StreamingContext.inputStream(source)}.
 *
 * <p>The engine calls these methods on the driver: {@link #start} once before the first batch, {@link #compute}
 * once per batch time in time order (again for a batch run again after a restart), then {@link #report} and
 * {@link #positionAfter} for that batch, and {@link #stop} once. A source that receives data continuously
 * (a receiver) is a source too; users write those as a {@code Receiver}, and the built-in receiver source
 * exposes its receiving through {@link #receiving()}.
 */
public interface InputSource<T> {
    /** Called once when the context starts, before the first batch; {@code context} stays valid until stop. */
    default void start(SourceContext context) {
    }

    /**
     * For a source of recorded input (a replay source): the timestamps of its earliest and latest records, or
     * empty (the default) for live input. A context on a replay clock ({@code Clock.replay()}) asks each of its
     * sources once, on the driver, before {@link #start}, and runs from the batch holding the earliest record of
     * them all to the batch holding the latest. {@code setting} reads the context's settings, as
     * {@link SourceContext#setting} does.
     */
    default Optional<RecordedSpan> recordedSpan(JavaSparkContext sc, Function<String, Optional<String>> setting) {
        return Optional.empty();
    }

    /** The RDD of batch {@code time} (a time on the context's batch grid), or empty when it has none. */
    Optional<JavaRDD<T>> compute(Time time);

    /** What this source reports for batch {@code time}; asked only after the batch's RDD was computed. */
    default BatchReport report(Time time) {
        return BatchReport.NONE;
    }

    /**
     * Whether a batch computed again after a driver restart holds the same records: true for sources that
     * replay by batch time or by a saved position. A restarted job continues exactly only if every source does.
     * Asked after {@link #start}, so the answer may depend on the settings read there.
     */
    default boolean replayable() {
        return false;
    }

    /**
     * Where this source stands after batch {@code time} (offsets, the files taken...), in its own text form, for
     * the checkpoint; empty when it needs none (it replays by batch time). On a restart the saved positions come
     * back in {@link SourceContext#restoredPositions()}.
     */
    default Optional<String> positionAfter(Time time) {
        return Optional.empty();
    }

    /**
     * Called once the checkpoint of batch {@code time} is durable: no batch up to it will run again, so the
     * source may clean its log or commit its offsets up to there.
     */
    default void checkpointWritten(Time time) {
    }

    /** Called when batch {@code time} has completed (its jobs ran); resources held for it may go. */
    default void batchDone(Time time) {
    }

    /** Called when no batch before {@code oldestKept} can be asked for again; per-batch metadata may go. */
    default void forgetOlderThan(Time oldestKept) {
    }

    /**
     * For a source that receives continuously on executors: what the engine controls of its receiving (launch,
     * stop, pending input, placement). Empty (the default) for sources that read their input when a batch asks.
     * Asked after {@link #start}.
     */
    default Optional<Receiving> receiving() {
        return Optional.empty();
    }

    /** Called once when the context stops; {@code gracefully}: hand over what was received first. */
    default void stop(boolean gracefully) {
    }
}
