package io.sluice.dstream.internal.ui;

import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.OutputOperationInfo;
import io.sluice.dstream.scheduler.StateOperatorInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.Time;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the Streaming page, the JSON endpoints, the metrics and the run report show: the batches a listener
 * heard of (active ones, and the newest {@code retainedBatches} completed ones), all-time totals, the
 * receivers' events, the Spark jobs each batch ran, and each stateful operator's newest figures and checkpoint
 * (kept apart from the window, so a checkpoint older than the retained batches is still shown). Fed on the
 * listener thread (and Spark's listener bus for jobs), read by the UI's threads: every access holds this
 * object's lock, and readers get copies.
 */
public final class StreamingStatus implements StreamingListener {
    /** One Spark job a batch ran, tagged by the engine with the batch and the operator (its description). */
    public record SparkJob(int id, String description) {
    }

    /** A batch as shown: its info, and the Spark jobs it ran. */
    public record Batch(BatchInfo info, List<SparkJob> jobs) {
    }

    /** A receiver as its events left it. */
    public record Receiver(String source, String status, long reconnects, String lastError, long lastErrorTime,
            long lastEventTime) {
    }

    /** All-time figures (not only the retained window). */
    public record Totals(long startTime, long completed, long failed, long records, long lastCompletedBatch) {
    }

    private final int retainedBatches;
    private final NavigableMap<Time, BatchInfo> active = new TreeMap<>();
    private final ArrayDeque<BatchInfo> completed = new ArrayDeque<>(); // oldest first
    private final Map<Long, List<SparkJob>> jobs = new LinkedHashMap<>();
    private final Map<String, Receiver> receivers = new LinkedHashMap<>();
    /** Per stateful operator: its figures in the newest completed batch that had any, and its newest checkpoint. */
    private final Map<String, StateOperatorInfo> latestState = new LinkedHashMap<>();
    private final Map<String, StateOperatorInfo> latestStateCheckpoint = new LinkedHashMap<>();
    private long startTime = -1;
    private long completedCount;
    private long failedCount;
    private long totalRecords;
    private long lastCompletedBatch = -1;

    public StreamingStatus(int retainedBatches) {
        if (retainedBatches < 1) {
            throw new IllegalArgumentException("sluice.ui.retainedBatches must be at least 1, was " + retainedBatches);
        }
        this.retainedBatches = retainedBatches;
    }

    /** Receivers known before any event (status "not started"), so the page lists them from the start. */
    public synchronized void expectReceiver(String source) {
        receivers.putIfAbsent(source, new Receiver(source, "not started", 0, null, -1, -1));
    }

    @Override
    public synchronized void onStreamingStarted(StreamingStarted event) {
        startTime = event.time();
    }

    @Override
    public synchronized void onBatchSubmitted(BatchSubmitted event) {
        active.put(event.batchInfo().batchTime(), event.batchInfo());
    }

    @Override
    public synchronized void onBatchStarted(BatchStarted event) {
        active.put(event.batchInfo().batchTime(), event.batchInfo());
    }

    @Override
    public synchronized void onOutputOperationStarted(OutputOperationStarted event) {
        outputProgress(event.outputOperationInfo());
    }

    @Override
    public synchronized void onOutputOperationCompleted(OutputOperationCompleted event) {
        outputProgress(event.outputOperationInfo());
    }

    /** A running batch's output operation started or ended: the page shows each batch's progress as it goes. */
    private void outputProgress(OutputOperationInfo op) {
        BatchInfo b = active.get(op.batchTime());
        if (b == null) {
            return;
        }
        Map<Integer, OutputOperationInfo> ops = new HashMap<>(b.outputOperationInfos());
        ops.put(op.id(), op);
        active.put(b.batchTime(), new BatchInfo(b.batchTime(), b.numRecords(), b.skippedRecords(), b.submissionTime(),
                b.processingStartTime(), b.processingEndTime(), ops, b.inputReports(), b.stateOperatorInfos()));
    }

    @Override
    public synchronized void onBatchCompleted(BatchCompleted event) {
        BatchInfo info = event.batchInfo();
        active.remove(info.batchTime());
        completed.addLast(info);
        completedCount++;
        if (info.failed()) {
            failedCount++;
        }
        totalRecords += info.numRecords();
        for (StateOperatorInfo state : info.stateOperatorInfos().values()) {
            if (state.reportedPartitions() > 0) {
                newest(latestState, state);
            }
            if (state.checkpoint() != null) {
                newest(latestStateCheckpoint, state);
            }
        }
        lastCompletedBatch = Math.max(lastCompletedBatch, info.batchTime().milliseconds());
        while (completed.size() > retainedBatches) {
            completed.removeFirst();
        }
        forgetJobsBefore(oldestRetained());
    }

    @Override
    public synchronized void onReceiverEvent(ReceiverEvent event) {
        Receiver r = receivers.getOrDefault(event.source(), new Receiver(event.source(), "not started", 0, null, -1,
                -1));
        receivers.put(event.source(), switch (event.kind()) {
            case "started" -> new Receiver(r.source(), "active", r.reconnects(), r.lastError(), r.lastErrorTime(),
                    event.time());
            case "reconnected" -> new Receiver(r.source(), "active", r.reconnects() + 1, r.lastError(),
                    r.lastErrorTime(), event.time());
            case "error" -> new Receiver(r.source(), r.status(), r.reconnects(), event.message(), event.time(),
                    event.time());
            case "stopped" -> new Receiver(r.source(), "stopped", r.reconnects(), r.lastError(), r.lastErrorTime(),
                    event.time());
            default -> new Receiver(r.source(), r.status(), r.reconnects(), r.lastError(), r.lastErrorTime(),
                    event.time());
        });
    }

    /** A Spark job of batch {@code batchMillis} started (heard on Spark's listener bus). */
    public synchronized void jobStarted(long batchMillis, int jobId, String description) {
        Optional<Long> oldest = oldestRetained();
        if (oldest.isPresent() && batchMillis < oldest.get() && !active.containsKey(new Time(batchMillis))) {
            return; // a job of a batch no longer shown
        }
        jobs.computeIfAbsent(batchMillis, t -> new ArrayList<>()).add(new SparkJob(jobId, description));
    }

    private static void newest(Map<String, StateOperatorInfo> latest, StateOperatorInfo state) {
        latest.merge(state.operatorId(), state, (old, now) -> now.batchTime().isBefore(old.batchTime()) ? old : now);
    }

    /** Per stateful operator (stable id), its figures in the newest completed batch whose tasks reported any. */
    public synchronized Map<String, StateOperatorInfo> latestState() {
        return Map.copyOf(latestState);
    }

    /** Per stateful operator (stable id), the figures of the newest completed batch that wrote its checkpoint. */
    public synchronized Map<String, StateOperatorInfo> latestStateCheckpoints() {
        return Map.copyOf(latestStateCheckpoint);
    }

    /** Once the window is full: the oldest retained batch (completion order is batch order, but for retries). */
    private Optional<Long> oldestRetained() {
        if (completed.size() < retainedBatches) {
            return Optional.empty();
        }
        return Optional.of(completed.peekFirst().batchTime().milliseconds());
    }

    private void forgetJobsBefore(Optional<Long> oldest) {
        if (oldest.isEmpty()) {
            return;
        }
        for (Iterator<Long> it = jobs.keySet().iterator(); it.hasNext(); ) {
            long t = it.next();
            if (t < oldest.get() && !active.containsKey(new Time(t))) {
                it.remove();
            }
        }
    }

    public int retainedBatches() {
        return retainedBatches;
    }

    public synchronized Totals totals() {
        return new Totals(startTime, completedCount, failedCount, totalRecords, lastCompletedBatch);
    }

    /** The active batches, newest first. */
    public synchronized List<Batch> activeBatches() {
        List<Batch> result = new ArrayList<>();
        for (BatchInfo b : active.descendingMap().values()) {
            result.add(batchOf(b));
        }
        return result;
    }

    /** The retained completed batches, oldest first (the charts' window). */
    public synchronized List<BatchInfo> completedBatches() {
        List<BatchInfo> sorted = new ArrayList<>(completed);
        sorted.sort((a, b) -> a.batchTime().compareTo(b.batchTime()));
        return sorted;
    }

    public synchronized int completedRetained() {
        return completed.size();
    }

    /** One page of the retained completed batches, newest first; {@code page} counts from 1. */
    public synchronized List<Batch> completedPage(int page, int size) {
        List<BatchInfo> sorted = completedBatches();
        List<Batch> result = new ArrayList<>();
        int from = sorted.size() - 1 - (page - 1) * size;
        for (int i = from; i >= 0 && i > from - size; i--) {
            result.add(batchOf(sorted.get(i)));
        }
        return result;
    }

    /** The batch at {@code batchMillis}, active or retained. */
    public synchronized Optional<Batch> batch(long batchMillis) {
        BatchInfo a = active.get(new Time(batchMillis));
        if (a != null) {
            return Optional.of(batchOf(a));
        }
        for (BatchInfo b : completed) {
            if (b.batchTime().milliseconds() == batchMillis) {
                return Optional.of(batchOf(b));
            }
        }
        return Optional.empty();
    }

    public synchronized List<Receiver> receivers() {
        return List.copyOf(receivers.values());
    }

    private Batch batchOf(BatchInfo info) {
        return new Batch(info, List.copyOf(jobs.getOrDefault(info.batchTime().milliseconds(), List.of())));
    }
}
