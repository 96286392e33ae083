package io.sluice.dstream.internal.scaling;

import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.state.StatefulOperator;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.Time;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The stateful operators of a running graph, placed through its {@code StatePlacement}. */
public final class GraphStatefulOperators implements StatefulOperators {
    private static final Logger LOG = LoggerFactory.getLogger(GraphStatefulOperators.class);

    private final StreamGraph graph;

    public GraphStatefulOperators(StreamGraph graph) {
        this.graph = graph;
    }

    @Override
    public void placeOn(List<ExecutorLocation> executors) {
        graph.statePlacement().placeOn(executors);
    }

    @Override
    public boolean stateOn(ExecutorLocation executor, Time time) {
        for (Operator<?> op : graph.operators()) {
            if (op instanceof StatefulOperator<?, ?, ?, ?, ?> stateful && stateful.stateAt(time, executor.toString())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void repartition(int partitions) {
        for (Operator<?> op : graph.operators()) {
            if (op instanceof StatefulOperator<?, ?, ?, ?, ?> stateful) {
                int n = Math.min(stateful.partitioner().keyGroups().count(), partitions);
                if (n != stateful.partitioner().numPartitions()) {
                    LOG.info("{}: {} state partitions from the next batch on", op.describe(), n);
                    stateful.repartition(n);
                }
            }
        }
    }
}
