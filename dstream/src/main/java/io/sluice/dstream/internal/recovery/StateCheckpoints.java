package io.sluice.dstream.internal.recovery;

import io.sluice.dstream.internal.Operator;
import io.sluice.rdd.Time;
import io.sluice.recovery.internal.StateCheckpoint;
import java.util.List;
import java.util.Optional;

/**
 * The state checkpoints of one stateful operator: which files hold its state as of a completed batch. The
 * checkpoint writer asks it on the scheduler's event loop when batch {@code time} is recorded as done.
 */
public interface StateCheckpoints {
    Operator<?> operator();

    /** The newest state checkpoint at or before {@code time} whose files are complete, if any. */
    Optional<StateCheckpoint> latestAsOf(Time time);

    /** The state checkpoints later ones may build on, whose files must stay (see the checkpoint store). */
    List<StateCheckpoint> inUse();
}
