package io.sluice.dstream.source;

import io.sluice.dstream.Clock;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.spark.api.java.JavaSparkContext;

/** What the engine gives a started {@link InputSource}: everything a source may use of the running context. */
public interface SourceContext {
    JavaSparkContext sparkContext();

    /** This run's batch times: its zero time and the batch interval. */
    BatchGrid grid();

    /** The context's clock: the one time every part of the engine reads. */
    Clock clock();

    /** How errors and reports name this source: the stream's name if the user gave one, else its call site. */
    String name();

    /**
     * The stream's id in checkpoints: its name if the user gave one, else derived from its place in the graph;
     * the same when the same application restarts. A source that keeps files names them by it.
     */
    String id();

    /** A setting of the context (its own, else the SparkContext's), e.g. {@code sluice.input.badRecords}. */
    Optional<String> setting(String key);

    /** The context's checkpoint directory, when it has one (a source may keep a write-ahead log under it). */
    Optional<String> checkpointDirectory();

    /**
     * After a restart: the positions this source reported for the last completed batch and for each batch that
     * runs again, oldest first; empty on a fresh start.
     */
    NavigableMap<Time, String> restoredPositions();

    /**
     * The rate this source should keep to, in records per second, as backpressure sets it: with
     * {@code sluice.backpressure.enabled} (or {@code spark.streaming.backpressure.enabled}) on, the engine's PID
     * estimator (Spark Streaming's, with its {@code backpressure.pid.*} settings) follows the records this source
     * reports for each batch and the batch's processing and scheduling delays, and this returns its latest
     * estimate, or {@code backpressure.initialRate} until the first one; empty when backpressure is off or has
     * no bound yet. A source reads it when it decides a batch ({@link InputSource#compute}), keeping its own
     * maximum; one that must push the rate elsewhere (a receiver on an executor) reads it in a listener's
     * {@code onBatchCompleted}, which runs after the estimate for that batch is in. (Empty by default, for
     * contexts a test makes to drive a source by hand.)
     */
    default OptionalLong rateLimit() {
        return OptionalLong.empty();
    }

    /** Receives the context's batch and receiver events (rate control listens to completed batches). */
    void addStreamingListener(StreamingListener listener);
}
