package io.sluice.dstream.internal.recovery;

import io.sluice.dstream.internal.GraphDescription;
import io.sluice.dstream.internal.Node;
import io.sluice.recovery.internal.Checkpoint;
import io.sluice.state.internal.checkpoint.SavedState;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Matches a rebuilt graph to a checkpoint by operator stable ids. Only what the checkpoint carries matters:
 * each saved state and each saved source position must find an operator of the same id and kind. New
 * operators start empty; operators without state may change freely.
 */
final class GraphMatch {
    private GraphMatch() {
    }

    /** One sentence per saved state or position that no operator of {@code graph} can take over. */
    static List<String> mismatches(GraphDescription graph, Checkpoint checkpoint) {
        List<String> problems = new ArrayList<>();
        for (SavedState state : SavedState.allOf(checkpoint)) {
            check(graph, state.operatorId(), state.kind(), "the state of", problems);
        }
        Set<String> sources = new LinkedHashSet<>();
        checkpoint.sources().forEach(p -> sources.add(p.operatorId()));
        for (String id : sources) {
            check(graph, id, checkpoint.operators().get(id), "the saved position of source", problems);
        }
        return problems;
    }

    private static void check(GraphDescription graph, String id, String kind, String what, List<String> problems) {
        Optional<Node<?>> op = graph.byStableId(id);
        String unnamedHint = id.startsWith("#") ? " (an unnamed operator, identified by its position in the "
                + "graph: give it a name with name(\"...\") so that changes elsewhere in the graph do not move it)"
                : "";
        if (op.isEmpty()) {
            problems.add(what + " operator '" + id + "' (" + kind + ") matches no operator of the new graph"
                    + unnamedHint);
        } else if (!op.get().kind().equals(kind)) {
            problems.add(what + " operator '" + id + "' was written by a " + kind + ", but "
                    + graph.describe(op.get()) + " is a " + op.get().kind());
        }
    }
}
