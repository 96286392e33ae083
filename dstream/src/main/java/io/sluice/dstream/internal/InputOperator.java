package io.sluice.dstream.internal;

import io.sluice.rdd.Time;
import java.time.Duration;
import java.util.List;

/**
 * A source: an operator without parents that produces one RDD per batch interval. Sources that receive data
 * continuously start and stop with the context and report how many records each batch holds.
 */
public abstract class InputOperator<T> extends Operator<T> {
    /** What a source reports for one batch: records in it, and records skipped as bad input. */
    public record Report(long records, long skipped) {
        public static final Report NONE = new Report(0, 0);
    }

    protected InputOperator(StreamGraph graph, String kind, List<?> userFunctions) {
        super(graph, kind, List.of(), userFunctions);
    }

    @Override
    public final Duration slide() {
        return graph().batchInterval();
    }

    /** Called once when the context starts, before the first batch. */
    public void start() {
    }

    /** Called once when the context stops; {@code gracefully} means: hand over what was received first. */
    public void stop(boolean gracefully) {
    }

    /** What this source reports for batch {@code time}; only asked after the batch's RDD was computed. */
    public Report report(Time time) {
        return Report.NONE;
    }
}
