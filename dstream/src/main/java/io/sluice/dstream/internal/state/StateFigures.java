package io.sluice.dstream.internal.state;

import io.sluice.dstream.scheduler.StateCheckpointInfo;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.rdd.BatchTimeMap;
import io.sluice.rdd.Time;
import io.sluice.state.internal.StateFiguresAccumulator;
import io.sluice.state.internal.StateFiguresAccumulator.PartitionFigures;
import io.sluice.state.internal.StateRDD;
import java.util.Optional;
import org.apache.spark.SparkContext;

/**
 * One stateful operator's figures per batch: what the tasks computing its state reported (through a Spark
 * accumulator, one entry per partition and batch, so a retried task or recomputed partition counts once), and
 * the state checkpoint the batch wrote. The batch's figures are taken, once, when it completes.
 */
final class StateFigures {
    private final String operatorId;
    private final StateFiguresAccumulator tasks = new StateFiguresAccumulator();
    private final BatchTimeMap<StateCheckpointInfo> checkpoints = new BatchTimeMap<>();

    StateFigures(SparkContext sc, String operatorId) {
        this.operatorId = operatorId;
        sc.register(tasks);
    }

    /** {@code transition}, reporting the figures of each partition it computes for batch {@code time}. */
    <D, R> StateRDD.Transition<Object, D, R> reporting(StateRDD.Transition<Object, D, R> transition, Time time) {
        return reporting(transition, tasks, time.milliseconds());
    }

    private static <D, R> StateRDD.Transition<Object, D, R> reporting(StateRDD.Transition<Object, D, R> transition,
            StateFiguresAccumulator tasks, long at) {
        return (previous, data, partition) -> {
            R result = transition.apply(previous, data, partition);
            tasks.add(PartitionFigures.of(at, partition, StatefulOperator.versionOf(result)));
            return result;
        };
    }

    /** The state checkpoint of batch {@code time} was written (by the batch's checkpoint job). */
    void checkpointWritten(Time time, StateCheckpointInfo checkpoint) {
        checkpoints.put(time, checkpoint);
    }

    /** Removes and returns the figures of batch {@code time}, whose state has {@code partitions} partitions. */
    Optional<StateOperatorInfo> take(Time time, int partitions) {
        Optional<StateFiguresAccumulator.Totals> reported = tasks.take(time.milliseconds());
        StateCheckpointInfo checkpoint = checkpoints.remove(time).orElse(null);
        if (reported.isEmpty() && checkpoint == null) {
            return Optional.empty();
        }
        StateFiguresAccumulator.Totals t = reported.orElse(new StateFiguresAccumulator.Totals(0, 0, 0, 0, 0));
        return Optional.of(new StateOperatorInfo(operatorId, time, t.keys(), t.bytes(), t.diskBytes(), t.timedOut(),
                t.partitions(), partitions, checkpoint));
    }

    /** Drops what batches at or before {@code time} left (a partition recomputed after its batch completed). */
    void forgetThrough(Time time) {
        tasks.forgetThrough(time.milliseconds());
        checkpoints.forgetThrough(time);
    }
}
