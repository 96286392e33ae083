package io.sluice.dstream.internal;

import io.sluice.dstream.Clock;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.dstream.source.BatchReport;
import io.sluice.dstream.source.InputSource;
import io.sluice.dstream.source.SourceContext;
import io.sluice.dstream.internal.rate.RateController;
import io.sluice.dstream.internal.rate.RateSettings;
import io.sluice.rdd.BatchGrid;
import io.sluice.rdd.Time;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The engine's side of an {@link InputSource}: the operator, without parents, that runs it as the input of a
 * stream. It starts and stops the source with the context, gives an empty RDD at the batches a restart skips,
 * asks the source for its report of a batch (feeding the backpressure rate controller, when it is on), and hands
 * it the positions and checkpoint events of recovery. Every input of a graph is one of these, built-in or not.
 */
public final class SourceOperator<T> extends Operator<T> {
    /** What of the running context a source may use, besides the operator context's SparkContext and grid. */
    public record Environment(Clock clock, Function<String, String> settings, Consumer<StreamingListener> listeners) {
    }

    private final InputSource<T> source;
    private final Environment environment;
    private final String checkpointDirectory;
    private final NavigableMap<Time, String> restored;
    /** Backpressure: set at start when it is on, before the source starts. */
    private volatile RateController rateController;

    private SourceOperator(Config config, InputSource<T> source, Environment environment) {
        super(config);
        this.source = source;
        this.environment = environment;
        this.checkpointDirectory = config.plan().checkpointDirectory();
        this.restored = Collections.unmodifiableNavigableMap(new TreeMap<>(config.plan().positionsOf(stableId())));
    }

    /** Describes an input stream read from {@code source}, one batch per batch interval. */
    public static <T> Node<T> node(GraphDescription graph, String kind, InputSource<T> source,
            Environment environment) {
        return graph.add(kind, CallSite.of(kind), List.of(), graph.batchInterval(), null, List.of(),
                Node.Settings.DEFAULT, config -> new SourceOperator<>(config, source, environment));
    }

    public InputSource<T> source() {
        return source;
    }

    @Override
    protected Optional<JavaRDD<T>> compute(Time time) {
        if (context().isSkipped(time)) {
            return Optional.of(context().sparkContext().emptyRDD()); // adds nothing to state or windows
        }
        return source.compute(time);
    }

    /** Called once when the context starts, before the first batch. */
    public void start() {
        RateSettings settings = RateSettings.from(environment.settings());
        if (settings.enabled()) {
            RateController controller = new RateController(describe(), slide().toMillis(), settings);
            environment.listeners().accept(controller); // before the source's listeners and the user's
            rateController = controller;
        }
        source.start(new Context());
    }

    /** The backpressure rate limit in force now (records/s), or empty when backpressure is off. */
    public OptionalLong rateLimit() {
        RateController controller = rateController;
        return controller == null ? OptionalLong.empty() : controller.rate();
    }

    /** Called once when the context stops; {@code gracefully} means: hand over what was received first. */
    public void stop(boolean gracefully) {
        source.stop(gracefully);
    }

    /** What the source reports for batch {@code time}; only asked after the batch's RDD was computed. */
    public BatchReport report(Time time) {
        BatchReport report = source.report(time);
        RateController controller = rateController;
        if (controller != null) {
            controller.recorded(time, report.records());
        }
        return report;
    }

    /**
     * Whether a batch of this source, computed again after a driver restart, holds the same records: a restarted
     * application continues exactly only if all its sources are replayable.
     */
    public boolean replayable() {
        return source.replayable();
    }

    /** Where the source stands after batch {@code time}, for the checkpoint (see {@link InputSource}). */
    public Optional<String> positionAfter(Time time) {
        return source.positionAfter(time);
    }

    /** The checkpoint of batch {@code time} is durable (called on the checkpoint writer's thread). */
    public void checkpointWritten(Time time) {
        source.checkpointWritten(time);
    }

    @Override
    protected void batchDone(Time time) {
        source.batchDone(time);
    }

    @Override
    protected void forgetOlderThan(Time oldestKept) {
        source.forgetOlderThan(oldestKept);
    }

    private final class Context implements SourceContext {
        @Override
        public JavaSparkContext sparkContext() {
            return context().sparkContext();
        }

        @Override
        public BatchGrid grid() {
            return SourceOperator.this.grid();
        }

        @Override
        public Clock clock() {
            return environment.clock();
        }

        @Override
        public String name() {
            return describe();
        }

        @Override
        public String id() {
            return stableId();
        }

        @Override
        public Optional<String> setting(String key) {
            return Optional.ofNullable(environment.settings().apply(key));
        }

        @Override
        public Optional<String> checkpointDirectory() {
            return Optional.ofNullable(checkpointDirectory);
        }

        @Override
        public NavigableMap<Time, String> restoredPositions() {
            return restored;
        }

        @Override
        public OptionalLong rateLimit() {
            return SourceOperator.this.rateLimit();
        }

        @Override
        public void addStreamingListener(StreamingListener listener) {
            environment.listeners().accept(listener);
        }
    }
}
