package io.sluice.dstream.internal;

import io.sluice.dstream.source.BatchReport;
import io.sluice.rdd.Time;
import java.util.Optional;

/**
 * A source: an operator without parents that produces one RDD per batch interval. Sources that receive data
 * continuously start and stop with the context and report how many records each batch holds.
 */
public abstract class InputOperator<T> extends Operator<T> {
    protected InputOperator(Config config) {
        super(config);
    }

    /** Called once when the context starts, before the first batch. */
    public void start() {
    }

    /** Called once when the context stops; {@code gracefully} means: hand over what was received first. */
    public void stop(boolean gracefully) {
    }

    /** What this source reports for batch {@code time}; only asked after the batch's RDD was computed. */
    public BatchReport report(Time time) {
        return BatchReport.NONE;
    }

    // ---- recovery: positions saved in checkpoints -------------------------------------------------------

    /**
     * Whether a batch of this source, computed again after a driver restart, holds the same records: true
     * for sources that replay by batch time or by a saved position. A restarted application continues
     * exactly only if all its sources are replayable.
     */
    public boolean replayable() {
        return false;
    }

    /**
     * Where this source stands after batch {@code time} (offsets, a file list...), in its own text form, for
     * the checkpoint; empty when it needs no position (it replays by batch time). Asked on the scheduler's
     * thread for batches this source has computed and not yet forgotten.
     */
    public Optional<String> positionAfter(Time time) {
        return Optional.empty();
    }

    /**
     * Called (on the checkpoint writer's thread) once the checkpoint of batch {@code time} is durable: every
     * batch up to it is complete and will never run again, so a source may now clean its write-ahead log or
     * commit its offsets up to there.
     */
    public void checkpointWritten(Time time) {
    }
}
