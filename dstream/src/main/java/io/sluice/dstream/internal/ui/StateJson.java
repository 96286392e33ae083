package io.sluice.dstream.internal.ui;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StateCheckpointInfo;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * The stateful operators' figures in the endpoints' documents: the {@code state} endpoint (per stateful
 * operator: its newest figures, its newest checkpoint, a short history of the newest batches and series over
 * the retained window) and the {@code state} part of a batch's document.
 */
final class StateJson {
    /** Batches in an operator's history table (newest first); the series cover the whole retained window. */
    static final int HISTORY = 10;

    private StateJson() {
    }

    /** The {@code state} document: one entry per stateful operator of the graph, in creation order. */
    static String state(StreamingStatus status, GraphView graph) {
        List<BatchInfo> window = status.completedBatches();
        var latest = status.latestState();
        var checkpoints = status.latestStateCheckpoints();
        Json j = new Json().array();
        for (GraphView.OperatorView op : graph.operators()) {
            if (!op.stateful()) {
                continue;
            }
            List<StateOperatorInfo> seen = new ArrayList<>(); // oldest first
            for (BatchInfo b : window) {
                StateOperatorInfo s = b.stateOperatorInfos().get(op.id());
                if (s != null) {
                    seen.add(s);
                }
            }
            j.object().field("id", op.id()).field("kind", op.kind()).field("name", op.name())
                    .field("callSite", op.callSite());
            j.key("latest");
            figuresOrNull(j, latest.get(op.id()));
            j.key("lastCheckpoint");
            StateOperatorInfo last = checkpoints.get(op.id());
            if (last == null) {
                j.raw("null");
            } else {
                checkpoint(j.object().field("batchTime", last.batchTime().milliseconds()), last.checkpoint()).end();
            }
            j.key("history").array();
            for (int i = seen.size() - 1; i >= 0 && i >= seen.size() - HISTORY; i--) {
                figuresOrNull(j, seen.get(i));
            }
            j.end().key("series").object();
            j.key("batchTime").array();
            seen.forEach(s -> j.value(s.batchTime().milliseconds()));
            j.end().key("keys").array();
            seen.forEach(s -> j.value(s.reportedPartitions() == 0 ? -1 : s.numKeys()));
            j.end().key("bytes").array();
            seen.forEach(s -> j.value(s.reportedPartitions() == 0 ? -1 : s.estimatedBytes()));
            j.end().end().end();
        }
        return j.end().toString();
    }

    /** The {@code state} array of a batch's document: the figures of every stateful operator it reported. */
    static void batchState(Json j, BatchInfo b) {
        j.key("state").array();
        b.stateOperatorInfos().values().forEach(s -> figuresOrNull(j, s));
        j.end();
    }

    private static void figuresOrNull(Json j, StateOperatorInfo s) {
        if (s == null) {
            j.raw("null");
            return;
        }
        j.object().field("id", s.operatorId()).field("batchTime", s.batchTime().milliseconds())
                .field("keys", s.numKeys()).field("bytes", s.estimatedBytes()).field("timedOut", s.timedOutKeys())
                .field("reportedPartitions", s.reportedPartitions()).field("partitions", s.partitions());
        j.key("checkpoint");
        if (s.checkpoint() == null) {
            j.raw("null");
        } else {
            checkpoint(j.object(), s.checkpoint()).end();
        }
        j.end();
    }

    private static Json checkpoint(Json j, StateCheckpointInfo c) {
        return j.field("kind", c.kind()).field("fullFiles", c.fullFiles()).field("deltaFiles", c.deltaFiles())
                .field("bytes", c.bytesWritten()).field("writeMs", c.writeMillis());
    }
}
