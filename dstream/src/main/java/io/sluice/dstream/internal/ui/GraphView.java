package io.sluice.dstream.internal.ui;

import io.sluice.dstream.internal.Operator;
import io.sluice.dstream.internal.OutputOperation;
import io.sluice.dstream.internal.SourceOperator;
import io.sluice.dstream.internal.StreamGraph;
import io.sluice.dstream.internal.state.StatefulOperator;
import io.sluice.dstream.source.Receiving;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The running graph as the page shows it, taken once at start: every operator with its stable id (the id
 * checkpoints attach state and positions to), its parents and outputs, and every source with what it can tell
 * live (its receiver, its current rate limit under backpressure).
 */
public final class GraphView {
    /** One operator: {@code parents} are stable ids; {@code outputs} the output operations reading it. */
    public record OperatorView(String id, String kind, String name, String callSite, List<String> parents,
            boolean input, boolean stateful, List<String> outputs) {
    }

    /**
     * One input stream: {@code name} as batches report it ({@code BatchInfo.inputReports} key), the receiver's
     * name as receiver events give it (null for sources without a receiver).
     */
    public record SourceView(String name, String id, String kind, String receiver, SourceOperator<?> operator) {
        /** The backpressure rate limit in force now (records/s), or empty when backpressure is off. */
        public OptionalLong rateLimit() {
            return operator == null ? OptionalLong.empty() : operator.rateLimit();
        }
    }

    private final List<OperatorView> operators;
    private final List<SourceView> sources;

    GraphView(List<OperatorView> operators, List<SourceView> sources) {
        this.operators = List.copyOf(operators);
        this.sources = List.copyOf(sources);
    }

    /** The view of a started graph (its sources started: a receiver stream knows its receiver then). */
    public static GraphView of(StreamGraph graph) {
        List<OperatorView> operators = new ArrayList<>();
        for (Operator<?> op : graph.operators()) {
            List<String> parents = op.parents().stream().map(Operator::stableId).toList();
            List<String> outputs = new ArrayList<>();
            for (OutputOperation<?> out : graph.outputs()) {
                if (out.parent() == op) {
                    outputs.add(out.kind() + " #" + out.id() + " (" + out.callSite() + ")");
                }
            }
            operators.add(new OperatorView(op.stableId(), op.kind(), op.name(), op.callSite(), parents,
                    op instanceof SourceOperator<?>, op instanceof StatefulOperator<?, ?, ?, ?, ?>, outputs));
        }
        List<SourceView> sources = new ArrayList<>();
        for (SourceOperator<?> input : graph.inputs()) {
            String name = input.name() != null ? input.name() : input.callSite();
            String receiver = null;
            receiver = input.source().receiving().map(Receiving::receiverName).orElse(null);
            sources.add(new SourceView(name, input.stableId(), input.kind(), receiver, input));
        }
        return new GraphView(operators, sources);
    }

    public List<OperatorView> operators() {
        return operators;
    }

    public List<SourceView> sources() {
        return sources;
    }
}
