package io.sluice.dstream.internal;

import io.sluice.dstream.source.Receiving;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.Deadline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The receivers of a started graph: every source whose {@link io.sluice.dstream.source.InputSource#receiving()}
 * is present. The context launches them once every source started, stops them first when it stops (so that what
 * they stored is known before the last batches), asks whether received data waits for one more batch, and
 * releases what they stored after the last batch; the autoscaler reads where they run and moves them.
 */
public final class InputReceivers {
    private final List<Receiving> receivers;

    private InputReceivers(List<Receiving> receivers) {
        this.receivers = List.copyOf(receivers);
    }

    /** The receivers of {@code graph}'s sources, which have started. */
    public static InputReceivers of(StreamGraph graph) {
        List<Receiving> receivers = new ArrayList<>();
        for (SourceOperator<?> input : graph.inputs()) {
            input.source().receiving().ifPresent(receivers::add);
        }
        return new InputReceivers(receivers);
    }

    /** How many receivers there are. */
    public int count() {
        return receivers.size();
    }

    public void start() {
        receivers.forEach(Receiving::startReceiving);
    }

    /** Stops every receiver, all within {@code timeout}; see {@link Receiving#stopReceiving}. */
    public void stop(Duration timeout, boolean gracefully) {
        Deadline deadline = Deadline.after(timeout);
        for (Receiving r : receivers) {
            r.stopReceiving(deadline.remaining(), gracefully);
        }
    }

    /** Whether received data waits for a batch: a graceful stop then runs one more. */
    public boolean hasPendingInput() {
        return receivers.stream().anyMatch(Receiving::hasPendingInput);
    }

    /** Once the last batch ran: frees what the receivers stored. */
    public void release() {
        receivers.forEach(Receiving::release);
    }

    /** The executors a receiver runs on now. */
    public Set<String> executors() {
        Set<String> ids = new HashSet<>();
        for (Receiving r : receivers) {
            r.executor().ifPresent(ids::add);
        }
        return ids;
    }

    /** Whether a receiver that stopped to move has not started again yet. */
    public boolean moving() {
        return receivers.stream().anyMatch(Receiving::moving);
    }

    /** Moves the receivers running on executor {@code executorId} to {@code to}; returns how many stopped to move. */
    public int moveOff(String executorId, List<ExecutorLocation> to) {
        int moved = 0;
        for (Receiving r : receivers) {
            if (r.moveOff(executorId, to)) {
                moved++;
            }
        }
        return moved;
    }
}
