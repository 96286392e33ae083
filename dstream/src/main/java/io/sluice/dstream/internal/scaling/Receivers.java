package io.sluice.dstream.internal.scaling;

import io.sluice.dstream.internal.InputReceivers;
import io.sluice.rdd.ExecutorLocation;
import java.util.List;
import java.util.Set;

/**
 * What the autoscaler asks of a context's receivers: the seam to their sources' receiving (tests give an
 * in-memory one).
 */
public interface Receivers {
    /** How many receivers the context runs. */
    int receivers();

    /** The executors a receiver runs on now. */
    Set<String> receiverExecutors();

    /** Whether a receiver that stopped to move has not started again yet (it runs on no executor meanwhile). */
    boolean receiversMoving();

    /**
     * Moves the receivers running on executor {@code executorId} to the executors {@code to}: each stores what it
     * received before it stops, and starts again there. Returns how many stopped to move.
     */
    int moveReceiversOff(String executorId, List<ExecutorLocation> to);

    /** The receivers of a context's sources. */
    static Receivers of(InputReceivers sources) {
        return new Receivers() {
            @Override
            public int receivers() {
                return sources.count();
            }

            @Override
            public Set<String> receiverExecutors() {
                return sources.executors();
            }

            @Override
            public boolean receiversMoving() {
                return sources.moving();
            }

            @Override
            public int moveReceiversOff(String executorId, List<ExecutorLocation> to) {
                return sources.moveOff(executorId, to);
            }
        };
    }
}
