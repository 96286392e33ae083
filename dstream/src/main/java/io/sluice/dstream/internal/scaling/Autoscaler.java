package io.sluice.dstream.internal.scaling;

import io.sluice.dstream.internal.state.StatePlacement;
import io.sluice.dstream.scheduler.BatchInfo;
import io.sluice.dstream.scheduler.StreamingListener;
import io.sluice.rdd.ExecutorLocation;
import io.sluice.rdd.Time;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executor autoscaling for a running context: Spark Streaming's {@code ExecutorAllocationManager}, plus moving
 * state and receivers off an executor before it goes. A listener: on each completed batch (on the listener
 * thread, which owns all its state) it feeds the {@link ScalingPolicy}, and brings the executors to the policy's
 * target.
 *
 * <p>Adding: asks the cluster manager for the new total; executors that register get state partitions at once
 * ({@link StatePlacement}: partition i on the i-th executor). Removing: picks the newest executor running no
 * receiver, else the newest, whose receivers then move to the others (each stores what it received, stops, and
 * starts again there); places the state on the others, and kills it once a batch that started after that
 * completed with no state partition and no receiver left on it, and, if receivers moved, a batch later than their
 * move (which holds the last blocks they stored there). State still there after {@value #DRAIN_BATCHES}
 * such batches does not hold the kill back: it is recomputed from its lineage, exactly, just slower. A receiver
 * that Spark launches on the executor again is moved again; if one is still there after {@value #MOVE_BATCHES}
 * batches (the others have no free core for it), the executor stays and the policy decides again. At start, the
 * target is {@code spark.executor.instances} (else the minimum) within the bounds, so a standalone cluster that
 * granted more executors than that is brought down to it the same way. With {@code repartitionState}, each
 * stateful operator is re-partitioned to {@code partitionsPerExecutor} partitions per placed executor when that
 * count changes.
 */
public final class Autoscaler implements StreamingListener {
    private static final Logger LOG = LoggerFactory.getLogger(Autoscaler.class);
    static final int DRAIN_BATCHES = 3;
    static final int MOVE_BATCHES = 10;

    /** An executor being removed: state placed elsewhere since {@code since}; killed once {@code killedAt >= 0}. */
    private static final class Removal {
        final ExecutorLocation executor;
        final long since;
        int batchesAfter;
        long killedAt = -1;
        long receiversMovedAt = -1; // when the last of its receivers stopped there (their last blocks reported)

        Removal(ExecutorLocation executor, long since) {
            this.executor = executor;
            this.since = since;
        }
    }

    private final AutoscalingSettings settings;
    private final ExecutorAllocation allocation;
    private final StatefulOperators operators;
    private final LongSupplier clock;
    private final Receivers receivers;
    private final int minExecutors;
    private final long patienceMillis;
    private final ScalingPolicy policy;
    private int target;
    private long requestedAt;
    private Removal removal;
    private List<ExecutorLocation> placed = List.of();

    /**
     * @param clock the context's clock, which batch times are read on
     * @param receivers the context's receivers (their number is the default minimum)
     * @param startExecutors the executor count to begin with (before the bounds), or null for the minimum
     */
    public Autoscaler(AutoscalingSettings settings, ExecutorAllocation allocation, StatefulOperators operators,
            LongSupplier clock, long batchMillis, Receivers receivers, Integer startExecutors) {
        this.settings = settings;
        this.allocation = allocation;
        this.operators = operators;
        this.clock = clock;
        this.receivers = receivers;
        this.minExecutors = settings.minExecutors(receivers.receivers());
        this.patienceMillis = 2 * settings.scalingInterval().toMillis();
        long now = clock.getAsLong();
        this.policy = new ScalingPolicy(settings, batchMillis, now);
        int start = startExecutors == null ? minExecutors : startExecutors;
        this.target = Math.max(minExecutors, Math.min(settings.maxExecutors(), start));
        this.requestedAt = now;
        allocation.requestTotal(target);
        LOG.info("Autoscaling executors in [{}, {}] from {}, every {} at ratios up {} and down {}", minExecutors,
                settings.maxExecutors(), target, settings.scalingInterval(), settings.upRatio(), settings.downRatio());
    }

    @Override
    public void onBatchCompleted(BatchCompleted event) {
        try {
            batchCompleted(event.batchInfo());
        } catch (RuntimeException e) { // never let scaling stop the listener bus or the job
            LOG.warn("Autoscaling failed after batch {}; trying again after the next one", event.batchInfo()
                    .batchTime(), e);
        }
    }

    private void batchCompleted(BatchInfo info) {
        long now = clock.getAsLong();
        policy.batchCompleted(info.processingDelay(), info.failed());
        List<ExecutorLocation> executors = allocation.executors();
        advanceRemoval(info, executors, now);
        if (removal == null && executors.size() > target) {
            startRemoval(executors, now);
        }
        boolean requestPending = executors.size() < target && now - requestedAt < patienceMillis;
        place(executors);
        policy.decide(now, executors.size(), minExecutors, requestPending || removal != null).ifPresent(d -> {
            LOG.info("Processing took {} of the batch interval on average over {} batches: {} executors, to {}",
                    String.format("%.2f", d.ratio()), d.batches(), executors.size(), d.target());
            target = d.target();
            if (target > executors.size()) {
                requestedAt = now;
                allocation.requestTotal(target);
            } else {
                startRemoval(executors, now);
                place(executors);
            }
        });
    }

    private void startRemoval(List<ExecutorLocation> executors, long now) {
        if (executors.size() < 2) {
            return;
        }
        Set<String> busy = receivers.receiverExecutors();
        List<ExecutorLocation> byAge = new ArrayList<>(executors);
        byAge.sort(StatePlacement.ORDER);
        ExecutorLocation leaving = byAge.get(byAge.size() - 1);
        for (ExecutorLocation e : byAge) {
            if (!busy.contains(e.executorId())) {
                leaving = e; // the newest running no receiver
            }
        }
        removal = new Removal(leaving, now);
        int moving = busy.contains(leaving.executorId()) ? moveReceivers(removal, executors) : 0;
        LOG.info("Removing executor {}: moving its state partitions{} to the other executors first",
                leaving.executorId(), moving > 0 ? " and " + moving + " receiver(s)" : "");
    }

    private void advanceRemoval(BatchInfo info, List<ExecutorLocation> executors, long now) {
        Removal r = removal;
        if (r == null) {
            return;
        }
        String id = r.executor.executorId();
        if (!executors.contains(r.executor)) {
            LOG.info("Executor {} is removed", id);
            removal = null;
        } else if (r.killedAt >= 0) {
            if (now - r.killedAt >= patienceMillis) {
                LOG.warn("Executor {} is still registered {} ms after it was killed; deciding again", id,
                        now - r.killedAt);
                removal = null;
            }
        } else if (info.processingStartTime() >= r.since) {
            r.batchesAfter++;
            if (receivers.receiverExecutors().contains(id)) { // launched there again after its locality wait
                if (r.batchesAfter >= MOVE_BATCHES) {
                    LOG.warn("Not removing executor {}: a receiver still runs there after {} batches (the other "
                            + "executors may have no free core for it); deciding again", id, r.batchesAfter);
                    removal = null;
                    target = executors.size();
                } else {
                    moveReceivers(r, executors);
                }
                return;
            }
            if (receivers.receiversMoving() || info.batchTime().milliseconds() <= r.receiversMovedAt) {
                return; // a receiver may yet start there; the blocks they stored there go to a later batch
            }
            boolean stateLeft = !operators.stateOn(r.executor, info.batchTime());
            if (stateLeft || r.batchesAfter >= DRAIN_BATCHES) {
                if (!stateLeft) {
                    LOG.warn("Executor {} still holds state after {} batches; killing it anyway: the batch that "
                            + "needs that state recomputes it from lineage", id, r.batchesAfter);
                }
                r.killedAt = now;
                allocation.kill(id);
            }
        }
    }

    private int moveReceivers(Removal r, List<ExecutorLocation> executors) {
        int moved = receivers.moveReceiversOff(r.executor.executorId(), others(executors, r.executor));
        if (moved > 0) {
            r.receiversMovedAt = clock.getAsLong();
        }
        return moved;
    }

    /** The executors but {@code leaving} (none if null), in placement order. */
    private static List<ExecutorLocation> others(List<ExecutorLocation> executors, ExecutorLocation leaving) {
        List<ExecutorLocation> others = new ArrayList<>(executors);
        others.remove(leaving);
        others.sort(StatePlacement.ORDER);
        return others;
    }

    /** Places state on the executors that stay; re-partitions it when their number changed, if asked to. */
    private void place(List<ExecutorLocation> executors) {
        List<ExecutorLocation> staying = others(executors, removal == null ? null : removal.executor);
        if (staying.equals(placed)) {
            return;
        }
        operators.placeOn(staying);
        if (settings.repartitionState() && !staying.isEmpty() && staying.size() != placed.size()) {
            operators.repartition(staying.size() * settings.partitionsPerExecutor());
        }
        placed = List.copyOf(staying);
    }
}
